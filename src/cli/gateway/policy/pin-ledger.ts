/**
 * The gateway's pin ledger (docs/guide/gateway.md "Pins and reviewed updates"): the one owner of the pins a gateway
 * admits against and of the tools it holds, used by the running gateway, `gateway review` and `gateway approve`.
 * Without a pins file the pins live in memory for the run. With one, the file is `admit --pins`'s format (listed tool
 * name → canonical text or digest), checked pin by pin whenever it is read, and its held file (`<pins>.held`) records
 * each held tool's current definition, which is what `approve` pins once the digest a person reviewed matches it.
 * Every change to either file is a read-modify-write under one lock file (`<pins>.lock`), each file replaced
 * atomically, so two writers (two gateways, `approve` beside a gateway) never lose each other's pins.
 */

import {
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { isPlainObject } from "../../../engine/json/json.js";
import { ToolCatalog } from "../../../index.js";
import { CliError, errorCode, oneLine } from "../../args.js";
import { DEFAULT_MAX_INPUT_BYTES, readJson } from "../../files.js";
import { textDigest } from "./listed-identity.js";

/** A held tool's definition as admission found it: what approving it pins. */
export interface HeldDefinition {
  /** The server the tool comes from. */
  readonly server: string;
  /** `tool_changed` or `tool_unpinned`; for a server (`server:<name>`), `server_changed` or `server_unpinned`. */
  readonly code: string;
  /** The JSON Pointers that differ from the pin (`[""]`: the whole definition, against a digest pin). */
  readonly fields: readonly string[];
  /** The definition now listed (its canonical text). */
  readonly canonical: string;
}

/** A tool the gateway holds, as the held file records it. */
export interface HeldRecord extends HeldDefinition {
  /** When it was first held with this definition. */
  readonly since: string;
}

export type PinsMode = "tofu" | "enforce";

/** How long a writer waits for another's lock before giving up. */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this, or whose process is gone, was left by a writer that died: it is taken over. */
const LOCK_STALE_MS = 30_000;

/** The held file beside a pins file. */
export function heldPath(pinsPath: string): string {
  return `${pinsPath}.held`;
}

let temporaries = 0;

/** Writes `text` to `path` atomically: a temporary file in the same directory, renamed over it. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${++temporaries}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: "wx", mode: 0o644 });
    renameSync(temporary, path);
  } catch (e) {
    try {
      unlinkSync(temporary);
    } catch {
      // not created
    }
    throw e;
  }
}

/** A path as one shell word (quoted when it holds anything but plain path characters). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Defines an own enumerable member (a name such as `__proto__` is an ordinary member). */
function define<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A pins file's content checked pin by pin, as admission will read it: each pin a digest (`sha256-` and 43 base64url
 * characters) or a canonical text of a tool definition. Throws `CliError` (exit 2) naming the first bad entry.
 */
function checkedPins(value: unknown, path: string): Record<string, string> {
  if (!isPlainObject(value)) throw new CliError(`pins file ${path} is not an object from tool name to pin`);
  const pins: Record<string, string> = {};
  for (const [name, pin] of Object.entries(value)) {
    const entry = `pins file ${path}: the pin of ${JSON.stringify(name)}`;
    if (typeof pin !== "string") throw new CliError(`${entry} is not a string (a canonical text or a sha256- digest)`);
    // Admission's own rule for a pin, applied to this one pin alone.
    const checked = ToolCatalog.admitBatch([], { pins: { [name]: pin } });
    if (!checked.ok) {
      const { message } = checked.error;
      throw new CliError(`${entry} ${oneLine(message.slice(Math.max(0, message.indexOf("must be"))))}`);
    }
    if (!pin.startsWith("sha256-")) {
      try {
        ToolCatalog.canonical(JSON.parse(pin));
      } catch (e) {
        throw new CliError(`${entry} is not a tool definition's canonical text: ${oneLine(errorMessage(e))}`);
      }
    }
    define(pins, name, pin);
  }
  return pins;
}

/** The pins a file holds, checked pin by pin, or undefined when there is no such file. */
async function readPins(path: string): Promise<Record<string, string> | undefined> {
  if (path === "-") throw new CliError("--pins needs a file (it may be written), not -");
  if (!existsSync(path)) return undefined;
  return checkedPins(await readJson(path, "pins file", DEFAULT_MAX_INPUT_BYTES), path);
}

/** The held records a held file holds ({} when there is none). */
async function readHeld(path: string): Promise<Record<string, HeldRecord>> {
  if (!existsSync(path)) return {};
  const held = await readJson(path, "held file", DEFAULT_MAX_INPUT_BYTES);
  if (!isPlainObject(held)) throw new CliError(`held file ${path} is not a JSON object`);
  for (const [name, record] of Object.entries(held)) {
    if (!isPlainObject(record) || typeof record["canonical"] !== "string") {
      throw new CliError(`held file ${path}: the entry for ${JSON.stringify(name)} has no canonical definition`);
    }
  }
  return held as Record<string, HeldRecord>;
}

/** Pins, one member per line, as `admit --pins` writes them. */
function pinsText(pins: Record<string, string>): string {
  return JSON.stringify(pins, null, 2) + "\n";
}

/** Writes the held records (or removes the held file when there are none). */
function writeHeld(path: string, held: Record<string, HeldRecord>): void {
  if (Object.keys(held).length > 0) writeAtomically(path, JSON.stringify(held, null, 2) + "\n");
  else if (existsSync(path)) unlinkSync(path);
}

/**
 * The digest of a held definition's canonical text (a tool's listed canonical text, `_meta` included, or a server's
 * identity): what review shows and approve names. For a tool without `_meta` it is `ToolCatalog.digest`'s.
 */
export async function digestOf(canonical: string): Promise<string> {
  JSON.parse(canonical);
  return textDigest(canonical);
}

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
async function withLock<T>(path: string, work: () => Promise<T>): Promise<T> {
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

/** One tool `approve` is asked to pin: its name and the digest of the definition the person reviewed. */
export interface Approval {
  readonly name: string;
  readonly digest: string;
}

/**
 * Pins, for each approval, the held definition whose digest is the one named, and removes it from the held file,
 * under the lock: all or nothing. Throws `CliError` when a tool is not held or its held definition is not the one
 * reviewed (it changed since), and then writes nothing.
 */
export async function approveHeld(
  pinsPath: string,
  approvals: readonly Approval[],
  reviewCommand: string,
): Promise<HeldRecord[]> {
  return withLock(pinsPath, async () => {
    const heldFile = heldPath(pinsPath);
    const held = await readHeld(heldFile);
    const pins = (await readPins(pinsPath)) ?? {};
    const records: HeldRecord[] = [];
    for (const { name, digest } of approvals) {
      if (!Object.hasOwn(held, name)) throw new CliError(`${name} is not held (${reviewCommand} lists what is)`);
      const record = held[name] as HeldRecord;
      let now: string;
      try {
        now = await digestOf(record.canonical);
      } catch (e) {
        throw new CliError(`held file ${heldFile}: the definition of ${name} is unusable: ${oneLine(errorMessage(e))}`);
      }
      if (now !== digest) {
        throw new CliError(
          `the held definition of ${name} is not the one reviewed (${digest}): it changed since; ` +
            `nothing was approved. Review it again (${reviewCommand}) and approve the digest it shows`,
        );
      }
      records.push(record);
    }
    for (const { name } of approvals) {
      define(pins, name, (held[name] as HeldRecord).canonical);
      delete held[name];
    }
    writeAtomically(pinsPath, pinsText(pins));
    writeHeld(heldFile, held);
    return records;
  });
}

type Pins = Record<string, string>;

/**
 * Adds to `pins` the `admitted` ones it lacks (a pin it holds is never changed) and the `refreshed` ones that differ
 * (servers' identities whose version alone moved); returns the names added and whether anything changed.
 */
function withNewPins(pins: Pins, admitted: Pins, refreshed: Pins): { added: string[]; changed: boolean } {
  const added = Object.keys(admitted).filter((name) => !Object.hasOwn(pins, name));
  const moved = Object.keys(refreshed).filter((name) => !Object.hasOwn(pins, name) || pins[name] !== refreshed[name]);
  for (const name of added) define(pins, name, admitted[name] as string);
  for (const name of moved) define(pins, name, refreshed[name] as string);
  return { added, changed: added.length + moved.length > 0 };
}

/** The pins a gateway admits against and the tools it holds: a pins file's, or memory's for the run. */
export class PinLedger {
  /** Without a pins file, the pins of every tool admitted during the run (first seen). */
  private readonly memory = new Map<string, string>();
  /** The pins file's text last written or read, so that the ledger's own writes are not taken for approvals. */
  private known: string | undefined;
  /** What was said about writes that failed: each said once (a read-only directory fails at every admission). */
  private readonly warned = new Set<string>();

  constructor(
    /** The pins file, or undefined: pins in memory. */
    readonly path: string | undefined,
    readonly mode: PinsMode,
    private readonly warn: (text: string) => void,
    /** The configuration file, for the review command the gateway advises. */
    private readonly configFile = "<file>",
  ) {}

  /** What a person runs to see a held tool and approve it, or why nothing can approve it during this run. */
  advice(): string {
    if (this.path === undefined) return "without --pins nothing can approve it until the gateway restarts";
    const mode = this.mode === "enforce" ? " --pins-mode enforce" : "";
    const files = `--config ${shellWord(this.configFile)} --pins ${shellWord(this.path)}`;
    const review = `backplane-schema gateway review ${files}`;
    return `review it with: ${review}${mode}, then approve the digest it prints`;
  }

  /**
   * Checks the pins file pin by pin (a `CliError`, exit 2, naming the first bad entry); returns what to say about it
   * at start, if anything (a file `--pins-mode enforce` expects that does not exist).
   */
  async open(): Promise<string | undefined> {
    if (this.path === undefined) return undefined;
    await this.pins();
    if (existsSync(this.path) || this.mode !== "enforce") return undefined;
    return `the pins file ${this.path} does not exist (--pins-mode enforce): every tool is held until approved`;
  }

  /** The pins to admit against now; throws `CliError` when the file cannot be read or holds a malformed pin. */
  async pins(): Promise<Record<string, string>> {
    if (this.path === undefined) return Object.fromEntries(this.memory);
    const pins = await readPins(this.path);
    this.known = pins === undefined ? undefined : pinsText(pins);
    return pins ?? {};
  }

  /**
   * After an admission: trust on first use adds the pins of `admitted` tools and servers not pinned yet and the
   * `refreshed` ones (`withNewPins`; the file is created when absent; nothing is written under `enforce`), and the
   * held file records `held`. Returns the names pinned on first use in the file.
   */
  async record(admitted: Pins, held: ReadonlyMap<string, HeldDefinition>, refreshed: Pins = {}): Promise<string[]> {
    const path = this.path;
    if (path === undefined) {
      for (const [name, pin] of Object.entries(admitted)) if (!this.memory.has(name)) this.memory.set(name, pin);
      for (const [name, pin] of Object.entries(refreshed)) this.memory.set(name, pin);
      return [];
    }
    try {
      return await withLock(path, async () => {
        const added = this.mode === "tofu" ? await this.addFirstSeen(path, admitted, refreshed) : [];
        await this.recordHeld(heldPath(path), held);
        return added;
      });
    } catch (e) {
      this.warnOnce(`cannot update the pins file ${path}: ${oneLine(errorMessage(e))}`);
      return [];
    }
  }

  private async addFirstSeen(path: string, admitted: Pins, refreshed: Pins): Promise<string[]> {
    const pins = (await readPins(path)) ?? {};
    const { added, changed } = withNewPins(pins, admitted, refreshed);
    if (!changed && existsSync(path)) return [];
    const text = pinsText(pins);
    writeAtomically(path, text);
    this.known = text;
    return added;
  }

  /** Records the held tools' current definitions for `approve`; entries of tools no longer held are dropped. */
  private async recordHeld(path: string, held: ReadonlyMap<string, HeldDefinition>): Promise<void> {
    let before: Record<string, HeldRecord> = {};
    try {
      before = await readHeld(path);
    } catch {
      // A held file that cannot be read is rewritten.
    }
    const now: Record<string, HeldRecord> = {};
    // Every tool held by this one event is held since the same moment.
    const at = new Date().toISOString();
    for (const [name, record] of held) {
      const was = Object.hasOwn(before, name) ? before[name] : undefined;
      define(now, name, { ...record, since: was?.canonical === record.canonical ? was.since : at });
    }
    if (JSON.stringify(now) === JSON.stringify(before)) return;
    try {
      writeHeld(path, now);
    } catch (e) {
      this.warnOnce(`cannot write the held file ${path}: ${oneLine(errorMessage(e))} (gateway approve needs it)`);
    }
  }

  private warnOnce(text: string): void {
    if (!this.warned.has(text)) this.warn(text);
    this.warned.add(text);
  }

  /**
   * Records what `gateway review` holds (its own listing) for `approve`, under the lock, beside what a running gateway
   * recorded for other tools (its servers may list a tool otherwise than review's own instances do), and returns
   * every record the held file then holds: what `approve` can pin.
   */
  async recordReview(held: ReadonlyMap<string, HeldDefinition>): Promise<Map<string, HeldRecord>> {
    const path = this.path;
    if (path === undefined) return new Map();
    return withLock(path, async () => {
      const file = heldPath(path);
      const all = new Map<string, HeldDefinition>();
      for (const [name, record] of Object.entries(await readHeld(file))) if (!held.has(name)) all.set(name, record);
      for (const [name, record] of held) all.set(name, record);
      await this.recordHeld(file, all);
      return new Map(Object.entries(await readHeld(file)));
    });
  }

  /**
   * Calls `changed` whenever someone else (`gateway approve`, a person) changes the pins file; a file that cannot be
   * used (a malformed pin) is reported, naming the entry, and the catalog in force stays.
   */
  watch(changed: (pins: Record<string, string>) => void, intervalMs = 250): () => void {
    const path = this.path;
    if (path === undefined) return () => undefined;
    const listener = async () => {
      let pins: Record<string, string> | undefined;
      try {
        pins = await readPins(path);
      } catch (e) {
        this.warn(`the pins file changed but cannot be used, the catalog in force stays: ${errorMessage(e)}`);
        return;
      }
      const text = pins === undefined ? undefined : pinsText(pins);
      if (text === this.known) return;
      this.known = text;
      changed(pins ?? {});
    };
    const onChange = () => void listener();
    watchFile(path, { interval: intervalMs, persistent: false }, onChange);
    return () => unwatchFile(path, onChange);
  }
}
