#!/usr/bin/env node
/**
 * `backplane-schema`: validate instances against a JSON Schema 2020-12 schema, admit an MCP tool catalog (from a
 * file or a live stdio server), serve MCP servers through the gateway, or run as a Bowtie harness. Exit codes
 * (`ExitCode`): 0 success, 1 invalid or refused, 2 usage or input errors, 3 execution failure, 4 tools that differ
 * from their pins; errors are one line on stderr, never a stack trace.
 */

import { errorMessage, isInstance } from "../engine/errors.js";
import { admitCommand, DEFAULT_TIMEOUT_MS } from "./admit-command.js";
import { CliError, ExitCode, oneLine } from "./args.js";
import { runBowtie } from "./bowtie.js";
import { DEFAULT_MAX_INPUT_BYTES } from "./files.js";
import { gatewayCommand } from "./gateway/command.js";
import { printable } from "./terminal-text.js";
import { packageInfo } from "./package-info.js";
import { validateCommand, type Io } from "./validate-command.js";

export const HELP = `Usage: backplane-schema <command> [options]

Commands:
  validate <schema.json> <instance.json>...  Validate instances against a JSON Schema 2020-12 schema. Quiet when
                             every instance is valid; an invalid one prints "<file>: invalid" and one line per error.
      --output <format>      flag | basic | detailed | verbose: print "<file>: valid" or "<file>: invalid" for every
                             instance and, for all but flag, the output unit as JSON.
      --content-assertion    contentEncoding/contentMediaType/contentSchema assert (default: annotation only).
      --registry <dir>       Register every *.json file under <dir> (recursively) by its $id, or, for a
                             file without $id, by the file:// URL of its absolute path. The schema's own
                             retrieval URI is its file:// URL, so relative $refs resolve to files. Nothing
                             is ever fetched from the network.
  admit <catalog.json>                       Admit an MCP tool catalog ({ backends?, tools } or a bare array
                             of tools, e.g. a saved tools/list result) through ToolCatalog.admitBatch. Without
                             "backends" in the file, a tool's backend is not checked (as the API without "backends").
                             A tool without a revision gets the digest of its definition (sha256:<12 hex digits>).
  admit --mcp "<command> [args...]"          Spawn a stdio MCP server (needs @modelcontextprotocol/sdk installed),
                             list its tools and admit them: revision = the server's version, backend = its name.
      --revision <rev>       With --mcp: every tool's revision instead of the server's version. With a file: the
                             revision of every tool that has none (instead of its digest).
      --backend <id>         With a file: the backend of every tool that has none (and one the catalog allows).
      --timeout-ms <ms>      Budget for starting the server and listing its tools (default ${DEFAULT_TIMEOUT_MS});
                             the server is stopped afterwards, also on errors and on timeout.
      --strict               Any error refuses the whole batch (the default, as in the API).
      --quarantine           Omit tools with an unsupported schema (or that a --target refuses), admit the rest.
      --fail-on-quarantine   Exit 1 when any tool is quarantined (a stricter gate; without it, only a batch that
                             admits no tool exits 1).
      --target <profile>     Check every admitted tool for a model provider (repeatable): openai-strict, openai,
                             anthropic-strict, anthropic, gemini-parameters, gemini-json-schema, or an id with its
                             date (openai-strict@2026-10). Each tool must fit: strict refuses the batch otherwise,
                             --quarantine omits the tool. Prints fits / translated / widened / refused per tool.
      --report-target <profile>
                             The same check, reported only (repeatable): the rows are printed, no tool is refused
                             or quarantined for this provider and the exit status does not change.
      --widen                With --target or --report-target: send the model a wider schema where a provider
                             refuses a constraint (listed per tool; the boundary still enforces the original schema).
      --emit                 With --target or --report-target: print the provider-ready tool lists as JSON on
                             stdout (the report goes to stderr).
      --pins <file>          Without the file: write the pins (canonical definitions) of the tools admitted to it.
                             With it: hold every tool that differs from its pin or has none, and exit 4 if any
                             does, or if a pinned tool is no longer listed or admitted (a CI gate).
      --namespace <prefix>   List every tool as <prefix>__<name> (pins are keyed by that name).
      --hidden-text report|refuse
                             Invisible or reordering characters in what a model reads: report them in the table
                             (default) or refuse the tool.
  gateway --config <file>                    Serve the MCP servers of an mcpServers file as one MCP server (stdio,
                             or Streamable HTTP with --http): tools namespaced <server>__<tool>, every call checked
                             by Execution.invoke, pins and held updates, faults isolated (needs the MCP SDK 1.x:
                             npm install @modelcontextprotocol/sdk).
      --http <host:port>     Serve Streamable HTTP at http://<host:port>/mcp instead of stdio (loopback only unless
                             --allow-remote); needs --token-file <file> (clients send its token as a bearer token).
      --allow-origin <origin>  Accept browser requests from this Origin (repeatable; others are refused).
      --pins <file>          Pins file: written on first use (trust on first use), then checked; a changed tool is
                             held until approved.
      --pins-mode tofu|enforce  enforce: never write the pins file; a tool without a pin is held too.
      --no-namespace         In front of exactly one server: its tools and prompts keep their own names.
      --hidden-text off|report|refuse  Invisible or reordering characters in tool text, results, prompts, resources
                             and elicitations: report them (default), or refuse the tool and withhold the answer;
                             off stops looking at answers (tool text is still reported).
      --closed-arguments     Refuse a call carrying a property its tool's schema does not declare, even where the
                             schema leaves the object open (each tool's closed objects reported at start-up).
      --target <profile>     Admit only tools a model provider accepts (repeatable; as in admit).
      --call-timeout <ms>    Bound on every upstream call (default 60000); a timed-out call fails alone.
      --startup-timeout <ms> Bound on starting a server and listing its tools (default 30000).
      --max-message-bytes <n>  Largest message from a server or the client (default 4194304); a server over it is
                             isolated.
      --max-queued-bytes <n>, --max-dropped-notifications <n>  Bytes waiting for a slow stdio client or server
                             (default 8388608; notifications past it are dropped) and a server's drops before it is
                             isolated (default 1000).
      --max-running-requests <n>  Requests running at once, all clients' together (default 128); one more is
                             refused at once (a tool call with a tool error).
      --max-listing-items <n>, --max-listing-bytes <n>  Total bound on one listing (default 10000, 16777216).
      --max-list-changed <n>  Relistings a server may cause in a minute before it is isolated (default 30).
      --max-stdout-noise <n>  Non-JSON-RPC stdout lines skipped before a server is isolated (default 1000).
      --client-request-timeout <ms>  Bound on a server's request to the client (default 300000).
      --session-idle-timeout <ms>  With --http: an idle session is closed after it (default 1800000).
      --restart              Restart a stdio server that stopped, with backoff.
      --audit <file|->       One JSON line per call and catalog event (- for stderr); --audit-values adds the
                             arguments and results.
      --draft07 reject|upgrade  Draft-07 tool schemas: translated exactly (upgrade, the default here) or refused.
      --format-assertion     "format" in tool schemas asserts on arguments and results (default: an annotation).
  gateway review --config <file> --pins <file>  Start the servers, print what is held, why and its digest, then exit.
  gateway approve --pins <file> <tool>@<digest>...  Pin the held definition whose digest review printed (refused if
                             it changed since; a running gateway picks the approval up).
  bowtie                                     Run as a Bowtie test harness (IHOP v1 on stdin/stdout).

Options of validate and admit:
  -                          In place of a file: read the schema, an instance or the catalog from stdin (once).
  --limit <name>=<value>     Set a limit (repeatable), e.g. --limit maxEvaluationSteps=10000.
  --draft07 reject|upgrade   A schema declaring draft-07: refuse it (default) or translate it exactly to 2020-12
                             (validate reports the changes on stderr; admit lists upgraded schemas).
  --legacy-dialects refuse|upgrade
                             The same for draft-04, draft-06, draft-07 and 2019-09 (--draft07 decides for draft-07).
  --format-assertion         "format" asserts (default: an annotation, as in the library).
  --no-format-assertion      "format" is an annotation: the default, spelled out.
  --format <name>=<module>   A custom format (repeatable): the module's default export is its checker, a function
                             of a string or { check, types, override } (docs/guide/engine.md "Custom formats").
                             A path starts with ./ ../ or /, anything else is a package. Only where format
                             asserts: with format an annotation the checker would never run, so that is a usage
                             error.
  --strict-schema            A keyword no vocabulary defines, or (where format asserts) an unknown format, is a
                             schema error naming the keyword meant, instead of being ignored.
  --max-input-bytes <n>      The cap on each file or stdin read (schema, instance, catalog, pins file, registry
                             file) and, with --mcp, on each message and on the listed tools in all (default
                             ${DEFAULT_MAX_INPUT_BYTES}, 64 MiB). Reading stops as soon as an input is larger (exit 3).

Numbers: JSON text is read into doubles. A number literal that a double cannot hold exactly (an integer beyond 2^53
that no double holds, a decimal with more digits than a double keeps, 1e400 overflowing, 1e-400 underflowing) is
refused (exit 2), naming the literal, its line, column and pointer: never validated as the number it rounds to.

Text a server or a file chose (names, revisions, pointers, messages) is printed with every control, bidi or
invisible character written as \\uXXXX, and a name, revision or pointer that is not one plain word is printed as a
JSON string: it cannot move the cursor, erase or forge a row, or pass for another column.

Options:
  --help       Show this help.
  --version    Show the version.

Exit status:
  0  every instance valid; the batch admitted; the gateway ended (its client closed stdin, or SIGINT/SIGTERM)
  1  an instance invalid; the batch refused, or it admitted no tool (--fail-on-quarantine: any tool quarantined);
     gateway review: a server could not be started
  2  usage error, unreadable file or stdin, malformed JSON, a number a double cannot hold, a schema that does not
     compile, an MCP server that cannot be started or does not list its tools within --timeout-ms
  3  execution failure: a limit was hit (an input over --max-input-bytes included) or the validator failed, so
     there is no verdict
  4  admit --pins: a tool differs from its pin, has no pin, or is pinned but no longer listed or admitted;
     gateway review: a tool would be held
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
    case "gateway":
      return gatewayCommand(rest, io);
    case "bowtie":
      if (rest.length > 0) throw new CliError("bowtie takes no arguments");
      return runBowtie();
    default:
      throw new CliError(`unknown command ${JSON.stringify(command)} (try --help)`);
  }
}

function report(e: unknown): number {
  const known = isInstance(e, CliError);
  const message = known ? e.message : `internal error: ${errorMessage(e)}`;
  process.stderr.write(printable(`backplane-schema: ${oneLine(message)}\n`));
  return known ? e.exitCode : ExitCode.executionFailure;
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

// Everything the commands print passes here: what a server or a file chose cannot move the cursor, recolour, erase a
// row or hide itself (terminal-text.ts).
const io: Io = {
  out: (text) => void process.stdout.write(printable(text)),
  err: (text) => void process.stderr.write(printable(text)),
};
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.exitCode = report(e);
  },
);
