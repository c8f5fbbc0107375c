#!/usr/bin/env node
/**
 * `backplane-schema`: validate instances against a JSON Schema 2020-12 schema, admit an MCP tool
 * catalog, or run as a Bowtie harness. Exit codes: 0 success/valid, 1 invalid/rejected, 2 usage or
 * input errors (always one line on stderr, never a stack trace).
 */

import { admitCommand } from "./admit-command.js";
import { CliError, oneLine } from "./args.js";
import { runBowtie } from "./bowtie.js";
import { packageInfo } from "./package-info.js";
import { validateCommand, type Io } from "./validate-command.js";

export const HELP = `Usage: backplane-schema <command> [options]

Commands:
  validate <schema.json> <instance.json>...  Validate instances against a JSON Schema 2020-12 schema.
      --output <format>      flag | basic | detailed | verbose (default: basic). Every format prints
                             "<file>: valid" or "<file>: invalid"; all but flag then print the output as JSON.
      --format-assertion     "format" asserts (default: annotation only).
      --content-assertion    contentEncoding/contentMediaType/contentSchema assert (default: annotation only).
      --registry <dir>       Register every *.json file under <dir> (recursively) by its $id, or, for a
                             file without $id, by the file:// URL of its absolute path. The schema's own
                             retrieval URI is its file:// URL, so relative $refs resolve to files. Nothing
                             is ever fetched from the network.
  admit <catalog.json> [--strict]            Admit an MCP tool catalog ({ backends?, tools } or a bare array
                             of tools) through ToolCatalog.admitBatch; quarantine mode unless --strict.
                             Without "backends" in the file, each tool's own backend is allowed.
  bowtie                                     Run as a Bowtie test harness (IHOP v1 on stdin/stdout).

Options:
  --help       Show this help.
  --version    Show the version.

Exit status: 0 all valid / batch admitted; 1 some instance invalid / batch rejected;
2 usage error, unreadable file, malformed JSON, or a schema that does not compile.
`;

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new CliError("no command given (try --help)");
  if (command === "--help" || command === "-h" || command === "help" || rest.includes("--help")) {
    io.out(HELP);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    io.out(packageInfo().version + "\n");
    return 0;
  }
  switch (command) {
    case "validate":
      return validateCommand(rest, io);
    case "admit":
      return admitCommand(rest, io);
    case "bowtie":
      if (rest.length > 0) throw new CliError("bowtie takes no arguments");
      return runBowtie();
    default:
      throw new CliError(`unknown command ${JSON.stringify(command)} (try --help)`);
  }
}

function report(e: unknown): number {
  const message = e instanceof CliError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
  process.stderr.write(`backplane-schema: ${oneLine(message)}\n`);
  return e instanceof CliError ? e.exitCode : 2;
}

// A closed stdout (e.g. piped into `head`) ends the command quietly; anything unforeseen is one line, never a stack.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.exitCode = report(e);
});
process.on("uncaughtException", (e) => {
  process.exitCode = report(e);
  process.exit();
});

const io: Io = { out: (text) => void process.stdout.write(text) };
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.exitCode = report(e);
  },
);
