/**
 * `gateway approve --pins <file> <tool>…`: pins, for each named tool, the definition the gateway (or `gateway
 * review`) held and recorded in the held file: exactly what was shown for review, never what a server lists now. The
 * pins file is rewritten atomically; a running gateway picks the change up without a restart.
 */

import { createHash } from "node:crypto";
import { existsSync, unlinkSync } from "node:fs";
import { CliError, ExitCode, parseArgs } from "../args.js";
import { printable } from "../terminal-text.js";
import type { Io } from "../validate-command.js";
import { heldPath, pinsText, readHeld, readPins, writeAtomically } from "./pins-store.js";

/** `ToolCatalog.digest`'s form of a canonical text: `sha256-` and the unpadded base64url of its SHA-256. */
function digestOf(canonical: string): string {
  return `sha256-${createHash("sha256").update(canonical, "utf8").digest("base64url")}`;
}

export async function approve(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { flags: [], options: ["--pins"] });
  const pinsPath = args.options.get("--pins");
  if (pinsPath === undefined) throw new CliError("gateway approve needs --pins <file>");
  const names = args.positionals;
  if (names.length === 0) throw new CliError("gateway approve needs the names of the held tools to approve");
  const heldFile = heldPath(pinsPath);
  const held = await readHeld(heldFile);
  const pins = (await readPins(pinsPath)) ?? {};
  for (const name of names) {
    if (!Object.hasOwn(held, name)) {
      throw new CliError(`${name} is not held (gateway review --config <file> --pins ${pinsPath} lists what is)`);
    }
  }
  for (const name of names) {
    const record = held[name]!;
    Object.defineProperty(pins, name, {
      value: record.canonical,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    delete held[name];
    const what = record.code === "tool_unpinned" ? "a new tool" : `changed at ${record.fields.join(", ")}`;
    io.out(
      printable(`approved ${name} (${what}; held since ${record.since}): pinned ${digestOf(record.canonical)}`) + "\n",
    );
  }
  writeAtomically(pinsPath, pinsText(pins));
  if (Object.keys(held).length > 0) writeAtomically(heldFile, JSON.stringify(held, null, 2) + "\n");
  else if (existsSync(heldFile)) unlinkSync(heldFile);
  return ExitCode.ok;
}
