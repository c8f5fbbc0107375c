/**
 * The files behind the pin ledger (pin-ledger.ts): the pins file, in `admit --pins`'s format (listed tool name →
 * canonical text or digest), checked pin by pin whenever it is read, and the held file beside it (`<pins>.held`), each
 * held tool's current definition; both replaced atomically. Writers take the lock (file-lock.ts) around these.
 */

import { existsSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { isPlainObject } from "../../../engine/json/json.js";
import { ToolCatalog } from "../../../index.js";
import { CliError, oneLine } from "../../args.js";
import { DEFAULT_MAX_INPUT_BYTES, readJson } from "../../files.js";

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

/** The held file beside a pins file. */
export function heldPath(pinsPath: string): string {
  return `${pinsPath}.held`;
}

let temporaries = 0;

/** Writes `text` to `path` atomically: a temporary file in the same directory, renamed over it. */
export function writeAtomically(path: string, text: string): void {
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

/** Defines an own enumerable member (a name such as `__proto__` is an ordinary member). */
export function define<T>(target: Record<string, T>, name: string, value: T): void {
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
export async function readPins(path: string): Promise<Record<string, string> | undefined> {
  if (path === "-") throw new CliError("--pins needs a file (it may be written), not -");
  if (!existsSync(path)) return undefined;
  return checkedPins(await readJson(path, "pins file", DEFAULT_MAX_INPUT_BYTES), path);
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

/** Writes the held records (or removes the held file when there are none). */
export function writeHeld(path: string, held: Record<string, HeldRecord>): void {
  if (Object.keys(held).length > 0) writeAtomically(path, JSON.stringify(held, null, 2) + "\n");
  else if (existsSync(path)) unlinkSync(path);
}
