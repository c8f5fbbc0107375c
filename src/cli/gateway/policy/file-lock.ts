/**
 * The lock every writer of a pins file takes (docs/guide/gateway.md "Pins and reviewed updates"): `<pins>.lock`,
 * created exclusively and holding the writer's pid, so that two gateways, or `approve` beside a gateway, never
 * read-modify-write the pins or held file at once. A lock whose writer is gone is taken over.
 */

import { readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { CliError, errorCode, oneLine } from "../../args.js";

/** How long a writer waits for another's lock before giving up. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this, or whose process is gone, was left by a writer that died: it is taken over. */
const LOCK_STALE_MS = 30_000;

/** Whether a lock file was left by a writer that is gone (its process ended, or it is older than any write takes). */
function staleLock(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
      } catch (e) {
        if (errorCode(e) === "ESRCH") return true;
      }
    }
    return Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false; // gone already, or being written: try again
  }
}

/** Locks held by this process, so that two writers in one process wait for each other too. */
const locked = new Map<string, Promise<void>>();

/**
 * Runs `work` holding the lock of a pins file: `<pins>.lock`, created exclusively, holding the writer's pid. A writer
 * waits (at most `LOCK_WAIT_MS`) while another holds it; a lock whose process is gone is taken over.
 */
export async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  // One writer at a time within this process, then across processes through the lock file.
  const before = locked.get(lock) ?? Promise.resolve();
  let release: () => void = () => undefined;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const queued = before.then(() => mine);
  locked.set(lock, queued);
  await before;
  try {
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
        break;
      } catch (e) {
        if (errorCode(e) !== "EEXIST") throw new CliError(`cannot lock ${path}: ${oneLine(errorMessage(e))}`);
        if (staleLock(lock)) {
          try {
            unlinkSync(lock);
          } catch {
            // another writer took it over first
          }
          continue;
        }
        if (Date.now() > deadline)
          throw new CliError(`${path} is locked by another writer (${lock}); try again, or remove a stale lock`);
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.floor(Math.random() * 20)));
      }
    }
    try {
      return await work();
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // removed as stale by another writer
      }
    }
  } finally {
    release();
    if (locked.get(lock) === queued) locked.delete(lock);
  }
}
