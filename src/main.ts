/**
 * The main job (`npm start`): admit a real-shaped MCP tool catalog in quarantine mode (or strict with
 * `--strict`), print which tools were accepted or quarantined and why, then check the catalog's example
 * calls, and the results its tools may return, through `Execution.invoke` and print each verdict.
 * Usage: `npm start -- [catalog.json] [--strict]`.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  Execution,
  ToolCatalog,
  upgradeDraft07,
  type AdmittedBundle,
  type ExecutionError,
  type Result,
} from "./index.js";

interface CatalogFile {
  description?: string;
  backends?: string[];
  tools: unknown[];
  calls?: { tool: string; description?: string; arguments: unknown; valid?: boolean }[];
  results?: { tool: string; description?: string; result: unknown; valid?: boolean }[];
}

const EXAMPLE = fileURLToPath(new URL("../fixtures/catalogs/example.json", import.meta.url));
const CALLS_SHOWN = 8;
const RESULTS_SHOWN = 6;

function fail(message: string): never {
  process.stderr.write(`backplane-agent-runtime: ${message}\n`);
  process.exit(2);
}

function readCatalog(path: string): CatalogFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    fail(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    fail(`${path} is not JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(parsed)) return { tools: parsed };
  if (typeof parsed !== "object" || parsed === null || !Array.isArray((parsed as CatalogFile).tools)) {
    fail(`${path} is not a catalog: expected an array of tools or an object with a "tools" array`);
  }
  return parsed as CatalogFile;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function backendsOf(catalog: CatalogFile): string[] {
  if (catalog.backends !== undefined) return catalog.backends;
  return catalog.tools.flatMap((t) =>
    typeof t === "object" && t !== null && typeof (t as { backend?: unknown }).backend === "string"
      ? [(t as { backend: string }).backend]
      : [],
  );
}

/** What the example dispatch returns: the catalog's first recorded valid result for the tool, else a text result. */
function sampleResult(catalog: CatalogFile, tool: string): unknown {
  const recorded = catalog.results?.find(
    (r) => r.tool === tool && r.valid === true && (r.result as { isError?: unknown } | null)?.isError !== true,
  );
  return recorded?.result ?? { content: [{ type: "text", text: "dispatched" }] };
}

/** One example per tool and verdict (and one for all quarantined tools), at most `max`. */
function examples<E extends { tool: string; valid?: boolean }>(all: E[], quarantined: Set<string>, max: number): E[] {
  const chosen: E[] = [];
  const covered = new Set<string>();
  for (const example of all) {
    const key = quarantined.has(example.tool) ? "quarantined" : `${example.tool}:${String(example.valid)}`;
    if (chosen.length >= max || covered.has(key)) continue;
    covered.add(key);
    chosen.push(example);
  }
  return chosen;
}

function report(label: string, result: Result<unknown, ExecutionError>, stages: string[], accepted: string): void {
  if (result.ok) {
    console.log(`\n  ✔ ${label}\n    ${accepted}; stages run: ${stages.join(" → ")}`);
    return;
  }
  const e = result.error;
  console.log(
    `\n  ✘ ${label}\n    ${e.class}/${e.code} at stage "${e.stage}"; ` +
      `host stages run: ${stages.length === 0 ? "none" : stages.join(" → ")}`,
  );
  console.log(
    e.modelText
      .split("\n")
      .map((l) => "    " + l)
      .join("\n"),
  );
}

async function run(bundle: AdmittedBundle, name: string, args: unknown, result: unknown, stages: string[]) {
  return Execution.invoke(
    bundle,
    { name, arguments: args },
    {
      authorize: () => {
        stages.push("authorize");
        return true;
      },
      dispatch: () => {
        stages.push("dispatch");
        return result;
      },
    },
  );
}

async function checkCalls(bundle: AdmittedBundle, catalog: CatalogFile): Promise<void> {
  const quarantined = new Set(bundle.rejected.map((r) => r.name));
  const chosen = examples(catalog.calls ?? [], quarantined, CALLS_SHOWN);
  if (chosen.length === 0) return;
  console.log(`\nChecking ${chosen.length} example calls through Execution.invoke:`);
  for (const call of chosen) {
    const stages: string[] = [];
    const result = await run(bundle, call.tool, call.arguments, sampleResult(catalog, call.tool), stages);
    const label = `${call.tool}${call.description !== undefined ? ` (${call.description})` : ""}`;
    report(label, result, stages, "arguments accepted");
  }
}

async function checkResults(bundle: AdmittedBundle, catalog: CatalogFile): Promise<void> {
  const quarantined = new Set(bundle.rejected.map((r) => r.name));
  const admitted = (catalog.results ?? []).filter((r) => !quarantined.has(r.tool));
  const chosen = examples(admitted, quarantined, RESULTS_SHOWN);
  if (chosen.length === 0) return;
  console.log(`\nChecking ${chosen.length} example results against their tools' output schemas:`);
  for (const example of chosen) {
    const args = catalog.calls?.find((c) => c.tool === example.tool && c.valid === true)?.arguments;
    const stages: string[] = [];
    const result = await run(bundle, example.tool, args, example.result, stages);
    const label = `${example.tool} result${example.description !== undefined ? ` (${example.description})` : ""}`;
    report(label, result, stages, "result accepted");
  }
}

function showUpgrades(bundle: AdmittedBundle, catalog: CatalogFile): void {
  if (bundle.rejected.length === 0) return;
  console.log('\nWhat draft07: "upgrade" (upgradeDraft07) would recover; never applied implicitly:');
  for (const rejected of bundle.rejected) {
    const tool = (catalog.tools as { name: string; inputSchema: unknown }[]).find((t) => t.name === rejected.name);
    const upgraded = upgradeDraft07(tool?.inputSchema);
    if (!upgraded.ok) {
      console.log(`  ${rejected.name}: not upgradable (${upgraded.error.message})`);
      continue;
    }
    const rules = [...new Set(upgraded.value.changes.map((c) => c.rule))].join(", ");
    console.log(`  ${rejected.name}: upgradable to 2020-12 with ${upgraded.value.changes.length} change(s): ${rules}`);
  }
}

async function main(argv: string[]): Promise<void> {
  const strict = argv.includes("--strict");
  const unknown = argv.filter((a) => a.startsWith("--") && a !== "--strict");
  if (unknown.length > 0) fail(`unknown option ${unknown[0]} (usage: npm start -- [catalog.json] [--strict])`);
  const paths = argv.filter((a) => !a.startsWith("--"));
  if (paths.length > 1) fail("give at most one catalog file");
  const path = paths[0] ?? EXAMPLE;
  const catalog = readCatalog(path);
  const mode = strict ? "strict" : "quarantine";
  console.log(
    `Admitting ${catalog.tools.length} tools from ` +
      `${path === EXAMPLE ? "the embedded example catalog (fixtures/catalogs/example.json)" : path} in ${mode} mode.`,
  );
  const admitted = ToolCatalog.admitBatch(catalog.tools, { mode, backends: backendsOf(catalog) });
  if (!admitted.ok) {
    const e = admitted.error;
    console.log(
      `\nThe batch was refused: ${e.class}/${e.code}` +
        (e.tool !== undefined ? ` (tool "${e.tool.name}", revision ${e.tool.revision})` : "") +
        `\n  ${e.message}`,
    );
    process.exitCode = 1;
    return;
  }
  const bundle = admitted.value;
  const rows = [["tool", "revision", "status", "reason"]];
  for (const t of catalog.tools as { name: string; revision: string }[]) {
    const rejected = bundle.rejected.find((r) => r.name === t.name);
    rows.push([
      t.name,
      t.revision,
      rejected === undefined ? "accepted" : "quarantined",
      rejected === undefined ? "" : `${rejected.error.code}: ${rejected.error.message}`,
    ]);
  }
  console.log("\n" + table(rows));
  console.log(`\n${bundle.accepted.length} accepted, ${bundle.rejected.length} quarantined.`);
  showUpgrades(bundle, catalog);
  await checkCalls(bundle, catalog);
  await checkResults(bundle, catalog);
}

await main(process.argv.slice(2));
