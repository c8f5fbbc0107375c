/**
 * `backplane-schema admit <catalog.json> [--strict]`: admits a tool catalog through
 * `ToolCatalog.admitBatch` (quarantine by default) and prints one row per tool.
 */

import { ToolCatalog } from "../index.js";
import { CliError, oneLine, parseArgs } from "./args.js";
import { isPlainObject, readJson } from "./files.js";
import type { Io } from "./validate-command.js";

interface Catalog {
  tools: unknown[];
  backends: string[];
}

/** Exit code: 0 admitted, 1 the batch failed; throws `CliError` for exit 2. */
export function admitCommand(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv, { flags: ["--strict"], options: [] });
  if (args.positionals.length !== 1) throw new CliError("admit needs exactly one catalog file");
  const path = args.positionals[0]!;
  const catalog = readCatalog(path);
  const mode = args.flags.has("--strict") ? "strict" : "quarantine";

  const result = ToolCatalog.admitBatch(catalog.tools, { mode, backends: catalog.backends });
  if (!result.ok) {
    const e = result.error;
    io.out(`${path}: batch rejected (${mode})\n`);
    const rows = [["error", `${e.class}/${e.code}`]];
    if (e.tool !== undefined) rows.push(["tool", `${e.tool.name} (revision ${e.tool.revision})`]);
    rows.push(["message", oneLine(e.message)]);
    if (e.cause !== undefined)
      rows.push([
        "cause",
        `${e.cause.class}/${e.cause.code}` +
          (e.cause.schemaPointer !== undefined ? ` at schema "${e.cause.schemaPointer}"` : ""),
      ]);
    io.out(table(rows, "  ") + "\n");
    return 1;
  }

  const bundle = result.value;
  const accepted = new Set(bundle.accepted);
  const rejected = new Map(bundle.rejected.map((r) => [r.name, r]));
  const rows = [["TOOL", "REVISION", "STATUS", "REASON"]];
  for (const tool of catalog.tools) {
    const name = isPlainObject(tool) && typeof tool["name"] === "string" ? tool["name"] : "";
    const revision = isPlainObject(tool) && typeof tool["revision"] === "string" ? tool["revision"] : "";
    const quarantined = rejected.get(name);
    if (quarantined !== undefined) {
      rows.push([
        name,
        revision,
        "quarantined",
        oneLine(`${quarantined.error.class}/${quarantined.error.code}: ${quarantined.error.message}`),
      ]);
    } else if (accepted.has(name)) {
      rows.push([name, revision, "accepted", ""]);
    }
  }
  io.out(table(rows, "") + "\n");
  io.out(`\n${path}: admitted (${mode}): ${bundle.accepted.length} accepted, ${bundle.rejected.length} quarantined\n`);
  return 0;
}

function readCatalog(path: string): Catalog {
  const parsed = readJson(path, "catalog");
  let tools: unknown;
  let backends: unknown;
  if (Array.isArray(parsed)) {
    tools = parsed;
  } else if (isPlainObject(parsed) && Object.hasOwn(parsed, "tools")) {
    tools = parsed["tools"];
    if (Object.hasOwn(parsed, "backends")) backends = parsed["backends"];
  }
  if (!Array.isArray(tools))
    throw new CliError(
      `catalog ${path} is not a catalog: expected an array of tools or an object with a "tools" array`,
    );
  if (backends === undefined) {
    // Without a backends list, every backend a tool names is allowed.
    const own = new Set<string>();
    for (const tool of tools) if (isPlainObject(tool) && typeof tool["backend"] === "string") own.add(tool["backend"]);
    return { tools, backends: [...own] };
  }
  if (!Array.isArray(backends) || !backends.every((b): b is string => typeof b === "string")) {
    throw new CliError(`catalog ${path} has a "backends" field that is not an array of strings`);
  }
  return { tools, backends };
}

function table(rows: string[][], prefix: string): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map(
      (r) =>
        prefix +
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join("  ")
          .trimEnd(),
    )
    .join("\n");
}
