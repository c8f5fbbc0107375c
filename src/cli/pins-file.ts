/**
 * `admit --pins <file>` (docs/reference/cli.md), a gate for "our servers' tools did not change": without the file, the
 * pins of what was admitted are written to it; with it, the batch is admitted against those pins, new tools are held,
 * and the gate fails when a tool changed, is new, or is pinned but no longer listed.
 */

import { existsSync, writeFileSync } from "node:fs";
import { errorMessage } from "../engine/errors.js";
import type { AdmittedBundle, IdentityError } from "../index.js";
import { CliError, errorCode, oneLine } from "./args.js";
import { isObject } from "../engine/json/json.js";
import { readJson } from "./files.js";
import { word } from "./terminal-text.js";

/** The pins a file holds (read under the input cap), tool name → pin, or undefined when there is no such file yet. */
export async function readPinsFile(path: string, maxBytes: number): Promise<Record<string, string> | undefined> {
  if (path === "-") throw new CliError("--pins needs a file (it may be written), not -");
  if (!existsSync(path)) return undefined;
  const pins = await readJson(path, "pins file", maxBytes);
  if (!isObject(pins) || !Object.values(pins).every((pin) => typeof pin === "string")) {
    throw new CliError(`pins file ${path} is not an object from tool name to pin`);
  }
  return pins as Record<string, string>;
}

/** Writes a bundle's pins to a new file (never over an existing one), one tool per member. */
export function writePinsFile(path: string, bundle: AdmittedBundle): string {
  try {
    writeFileSync(path, JSON.stringify(bundle.pins, null, 2) + "\n", { flag: "wx" });
  } catch (e) {
    throw new CliError(
      `cannot write pins file ${path}: ${oneLine(errorCode(e) === "EEXIST" ? "it exists" : errorMessage(e))}`,
    );
  }
  return `${path}: wrote ${Object.keys(bundle.pins).length} pin(s)\n`;
}

/** What checking a batch against a pins file found. */
export interface PinsGate {
  /** Tools that match their pins. */
  readonly matching: number;
  /** Tools that differ from their pins. */
  readonly changed: readonly string[];
  /** Tools the file has no pin for. */
  readonly unpinned: readonly string[];
  /** Pinned tools the batch does not list. */
  readonly removed: readonly string[];
  /** Pinned tools the batch lists but quarantined (an unsupported schema): no longer admitted as pinned. */
  readonly quarantined: readonly string[];
}

/** The gate's findings for a bundle admitted against `pins`; `listed` are the names the batch lists. */
export function pinsGate(bundle: AdmittedBundle, pins: Record<string, string>, listed: ReadonlySet<string>): PinsGate {
  const held = (code: IdentityError["code"]) =>
    bundle.rejected.filter((r) => r.schema === undefined && r.error.code === code).map((r) => r.name);
  return {
    matching: bundle.accepted.filter((name) => Object.hasOwn(pins, name)).length,
    changed: held("tool_changed"),
    unpinned: held("tool_unpinned"),
    removed: Object.keys(pins).filter((name) => !listed.has(name)),
    quarantined: bundle.rejected
      .filter((r) => r.schema !== undefined && Object.hasOwn(pins, r.name))
      .map((r) => r.name),
  };
}

/** Whether the gate fails. */
export function gateFails(gate: PinsGate): boolean {
  return gate.changed.length + gate.unpinned.length + gate.removed.length + gate.quarantined.length > 0;
}

/** One line for the gate, naming the pinned tools no longer listed or admitted. */
export function gateReport(path: string, gate: PinsGate): string {
  const named = [
    ...(gate.removed.length === 0 ? [] : [`no longer listed: ${gate.removed.map(word).join(", ")}`]),
    ...(gate.quarantined.length === 0 ? [] : [`pinned but quarantined: ${gate.quarantined.map(word).join(", ")}`]),
  ];
  return (
    `${path}: ${gate.matching} match, ${gate.changed.length} changed, ${gate.unpinned.length} new, ` +
    `${gate.removed.length} removed, ${gate.quarantined.length} quarantined` +
    `${named.length === 0 ? "" : ` (${named.join("; ")})`}\n`
  );
}
