/**
 * The gateway's pin ledger (docs/guide/gateway.md "Pins and reviewed updates"): the one owner of the pins a gateway
 * admits against and of the tools it holds, used by the running gateway, `gateway review` and `gateway approve`.
 * Without a pins file the pins live in memory for the run. With one, the pins file and its held file (pin-files.ts)
 * are read and written here, each change a read-modify-write under the file's lock (file-lock.ts), so two writers
 * (two gateways, `approve` beside a gateway) never lose each other's pins; what `approve` pins is approval.ts's.
 */

import { existsSync, unwatchFile, watchFile } from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { oneLine } from "../../args.js";
import { withLock } from "./file-lock.js";
import {
  define,
  heldPath,
  pinsText,
  readHeld,
  readPins,
  writeAtomically,
  writeHeld,
  type HeldDefinition,
  type HeldRecord,
} from "./pin-files.js";

export type { HeldDefinition } from "./pin-files.js";

export type PinsMode = "tofu" | "enforce";

/** A path as one shell word (quoted when it holds anything but plain path characters). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
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
