/**
 * `backplane-schema admit <catalog.json|-> | --mcp "<command> [args…]"`: admits a tool catalog, from a file or
 * listed live from a stdio MCP server, through `ToolCatalog.admitBatch` (quarantine unless `--strict`) and prints
 * one row per tool.
 */

import { ToolCatalog } from "../index.js";
import { CliError, parseArgs } from "./args.js";
import { admissionExitCode, admissionReport } from "./admission-report.js";
import { BOUNDARY_ARGS, draft07Of, limitsOf } from "./boundary-options.js";
import { catalogOf } from "./catalog.js";
import { inputName, readJson } from "./files.js";
import { listMcpCatalog } from "./mcp-catalog.js";
import type { Io } from "./validate-command.js";

export const DEFAULT_TIMEOUT_MS = 10_000;
/** The largest delay `setTimeout` honours. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Exit code: 0 admitted, 1 refused, 3 refused on a limit; throws `CliError` for exit 2. */
export async function admitCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    flags: ["--strict"],
    options: ["--mcp", "--revision", "--timeout-ms", ...BOUNDARY_ARGS.options],
    repeatable: BOUNDARY_ARGS.repeatable,
  });
  const mode = args.flags.has("--strict") ? "strict" : "quarantine";
  const limits = limitsOf(args);
  const draft07 = draft07Of(args);
  const mcp = args.options.get("--mcp");
  if (mcp === undefined) {
    for (const only of ["--revision", "--timeout-ms"])
      if (args.options.has(only)) throw new CliError(`${only} applies only to admit --mcp`);
  }
  if (mcp !== undefined && args.positionals.length > 0)
    throw new CliError("admit takes either a catalog file or --mcp, not both");
  if (mcp === undefined && args.positionals.length !== 1)
    throw new CliError("admit needs exactly one catalog file (or --mcp)");

  let tools: unknown[];
  let backends: string[];
  let source: string;
  if (mcp !== undefined) {
    const revision = args.options.get("--revision");
    const listed = await listMcpCatalog(mcp, {
      timeoutMs: timeoutOf(args.options.get("--timeout-ms")),
      ...(revision !== undefined ? { revision } : {}),
    });
    ({ tools, source } = listed);
    backends = [listed.backend];
  } else {
    const path = args.positionals[0]!;
    source = inputName(path);
    ({ tools, backends } = catalogOf(readJson(path, "catalog"), source));
  }

  const result = ToolCatalog.admitBatch(tools, {
    mode,
    backends,
    draft07,
    ...(limits !== undefined ? { limits } : {}),
  });
  io.out(admissionReport(tools, result, source, mode));
  return admissionExitCode(result);
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(text);
  if (!/^[0-9]+$/.test(text) || ms < 1 || ms > MAX_TIMEOUT_MS)
    throw new CliError(
      `--timeout-ms must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got "${text}"`,
    );
  return ms;
}
