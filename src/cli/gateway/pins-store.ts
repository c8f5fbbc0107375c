/**
 * The gateway's pins file and its held file (docs/guide/gateway.md §Pins). The pins file is `admit --pins`'s format:
 * listed tool name → canonical text (or digest). Trust on first use writes it, atomically (a temporary file renamed
 * over it), when it is absent, and adds the pins of tools first seen later; it never changes a pin it holds: only
 * `gateway approve` does, with the definition the gateway held. In `enforce` mode the gateway never writes it. The held
 * file (`<pins>.held`) records each held tool's current definition, which is what `approve` pins.
 */

import { existsSync, renameSync, unlinkSync, unwatchFile, watchFile, writeFileSync } from "node:fs";
import { errorMessage } from "../../engine/errors.js";
import { isPlainObject } from "../../engine/json/json.js";
import { CliError, oneLine } from "../args.js";
import { DEFAULT_MAX_INPUT_BYTES, readJson } from "../files.js";
import { readPinsFile } from "../pins-file.js";

/** A tool the gateway holds, as the held file records it. */
export interface HeldRecord {
  /** The server the tool comes from. */
  readonly server: string;
  /** `tool_changed` or `tool_unpinned`. */
  readonly code: string;
  /** The JSON Pointers that differ from the pin (`[""]`: the whole definition, against a digest pin). */
  readonly fields: readonly string[];
  /** The definition now listed (its canonical text): what approving it pins. */
  readonly canonical: string;
  /** When it was first held. */
  readonly since: string;
}

export type PinsMode = "tofu" | "enforce";

/** The held file beside a pins file. */
export function heldPath(pinsPath: string): string {
  return `${pinsPath}.held`;
}

/** Writes `text` to `path` atomically: a temporary file in the same directory, renamed over it. */
export function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
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

/** The pins a file holds (tool name → pin, under the CLI's input cap), or undefined when there is no such file. */
export function readPins(path: string): Promise<Record<string, string> | undefined> {
  return readPinsFile(path, DEFAULT_MAX_INPUT_BYTES);
}

/** The held records a held file holds ({} when there is none). */
export async function readHeld(path: string): Promise<Record<string, HeldRecord>> {
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
export function pinsText(pins: Record<string, string>): string {
  return JSON.stringify(pins, null, 2) + "\n";
}

/** The pins file of a running gateway: read, extended on first use, watched for approvals. */
export class PinsStore {
  /** The text last written or read, so that the gateway's own writes are not taken for approvals. */
  private known: string | undefined;
  private heldWarned = false;

  constructor(
    readonly path: string,
    readonly mode: PinsMode,
    private readonly warn: (text: string) => void,
  ) {}

  /** The pins in the file now ({} when there is none); throws `CliError` when it cannot be read. */
  async read(): Promise<Record<string, string>> {
    const pins = await readPins(this.path);
    this.known = pins === undefined ? undefined : pinsText(pins);
    return pins ?? {};
  }

  /**
   * Trust on first use: the pins of `admitted` tools the file does not hold yet are added (the file is created when
   * absent); a pin it holds is never changed. Nothing is written in `enforce` mode or when nothing is new.
   */
  async addFirstSeen(admitted: Record<string, string>): Promise<string[]> {
    if (this.mode === "enforce") return [];
    const pins = (await readPins(this.path)) ?? {};
    const added = Object.keys(admitted).filter((name) => !Object.hasOwn(pins, name));
    if (added.length === 0 && existsSync(this.path)) return [];
    for (const name of added)
      Object.defineProperty(pins, name, {
        value: admitted[name],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    const text = pinsText(pins);
    try {
      writeAtomically(this.path, text);
      this.known = text;
    } catch (e) {
      this.warn(`cannot write the pins file ${this.path}: ${oneLine(errorMessage(e))}`);
      return [];
    }
    return added;
  }

  /** Records the held tools' current definitions for `approve`; entries of tools no longer held are dropped. */
  async recordHeld(held: ReadonlyMap<string, Omit<HeldRecord, "since">>): Promise<void> {
    const path = heldPath(this.path);
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
      const since = before[name]?.canonical === record.canonical ? before[name].since : at;
      Object.defineProperty(now, name, {
        value: { ...record, since },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (JSON.stringify(now) === JSON.stringify(before)) return;
    try {
      if (held.size === 0 && existsSync(path)) unlinkSync(path);
      else if (held.size > 0) writeAtomically(path, JSON.stringify(now, null, 2) + "\n");
    } catch (e) {
      if (!this.heldWarned)
        this.warn(`cannot write the held file ${path}: ${oneLine(errorMessage(e))} (gateway approve needs it)`);
      this.heldWarned = true;
    }
  }

  /** Calls `changed` with the file's pins whenever someone else (`gateway approve`, a person) changes the file. */
  watch(changed: (pins: Record<string, string>) => void, intervalMs = 250): () => void {
    const listener = async () => {
      let pins: Record<string, string> | undefined;
      try {
        pins = await readPins(this.path);
      } catch (e) {
        this.warn(`the pins file changed but cannot be used: ${errorMessage(e)}`);
        return;
      }
      const text = pins === undefined ? undefined : pinsText(pins);
      if (text === this.known) return;
      this.known = text;
      changed(pins ?? {});
    };
    const onChange = () => void listener();
    watchFile(this.path, { interval: intervalMs, persistent: false }, onChange);
    return () => unwatchFile(this.path, onChange);
  }
}
