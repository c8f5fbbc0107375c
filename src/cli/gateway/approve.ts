/**
 * `gateway approve --pins <file> <tool>@<digest>...`: pins, for each named tool, the definition the gateway (or
 * `gateway review`) held and recorded in the held file, and only when its digest is the one `gateway review` printed
 * for it: exactly what the person was shown, never what a server lists now nor a definition recorded since. A tool
 * named without a digest is refused (approve never pins a definition it did not name). The pin ledger writes under its
 * lock; a running gateway picks the change up without a restart.
 */

import { CliError, ExitCode, parseArgs } from "../args.js";
import { printable } from "../terminal-text.js";
import type { Io } from "../validate-command.js";
import { approveHeld, type Approval } from "./policy/approval.js";

/** `<tool>@sha256-<43 base64url characters>`. */
const NAMED = /^(.+)@(sha256-[A-Za-z0-9_-]{43})$/;

export async function approve(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { flags: [], options: ["--pins"] });
  const pinsPath = args.options.get("--pins");
  if (pinsPath === undefined) throw new CliError("gateway approve needs --pins <file>");
  if (args.positionals.length === 0)
    throw new CliError("gateway approve needs the held tools to approve, each as <tool>@<digest> (gateway review)");
  const reviewCommand = `gateway review --config <file> --pins ${pinsPath}`;
  const approvals: Approval[] = args.positionals.map((given) => {
    const named = NAMED.exec(given);
    if (named === null) {
      throw new CliError(
        `gateway approve ${JSON.stringify(given)}: name the definition you reviewed as <tool>@<digest>, ` +
          `the digest ${reviewCommand} prints for it; approve never pins a definition it did not name`,
      );
    }
    return { name: named[1] as string, digest: named[2] as string };
  });
  const records = await approveHeld(pinsPath, approvals, reviewCommand);
  records.forEach((record, i) => {
    const { name, digest } = approvals[i] as Approval;
    const what = record.code === "tool_unpinned" ? "a new tool" : `changed at ${record.fields.join(", ")}`;
    io.out(printable(`approved ${name} (${what}; held since ${record.since}): pinned ${digest}`) + "\n");
  });
  return ExitCode.ok;
}
