/**
 * The main job (`npm start`): admit a real-shaped MCP tool catalog in quarantine mode (or strict with
 * `--strict`), print which tools were accepted or quarantined and why, then check the catalog's example
 * calls through `Execution.invoke` and print each verdict. Usage: `npm start -- [catalog.json] [--strict]`.
 */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Execution, ToolCatalog, upgradeDraft07, type AdmittedBundle } from "./index.js";

interface CatalogFile {
  description?: string;
  backends?: string[];
  tools: unknown[];
  calls?: { tool: string; description?: string; arguments: unknown; valid?: boolean }[];
}

const EXAMPLE = fileURLToPath(new URL("../fixtures/catalogs/example.json", import.meta.url));
const CALLS_SHOWN = 8;

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

async function checkCalls(bundle: AdmittedBundle, catalog: CatalogFile): Promise<void> {
  const chosen: NonNullable<CatalogFile["calls"]> = [];
  const covered = new Set<string>();
  const quarantined = new Set(bundle.rejected.map((r) => r.name));
  for (const call of catalog.calls ?? []) {
    const key = quarantined.has(call.tool) ? "quarantined" : `${call.tool}:${String(call.valid)}`;
    if (chosen.length >= CALLS_SHOWN || covered.has(key)) continue;
    covered.add(key);
    chosen.push(call);
  }
  if (chosen.length === 0) return;
  console.log(`\nChecking ${chosen.length} example calls through Execution.invoke:`);
  for (const call of chosen) {
    const stages: string[] = [];
    const result = await Execution.invoke(
      bundle,
      { name: call.tool, arguments: call.arguments },
      {
        authorize: () => {
          stages.push("authorize");
          return true;
        },
        dispatch: () => {
          stages.push("dispatch");
          return "dispatched";
        },
      },
    );
    const label = `${call.tool}${call.description !== undefined ? ` (${call.description})` : ""}`;
    if (result.ok) {
      console.log(`\n  ✔ ${label}\n    arguments accepted; stages run: ${stages.join(" → ")}`);
    } else {
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
  }
}

function showUpgrades(bundle: AdmittedBundle, catalog: CatalogFile): void {
  if (bundle.rejected.length === 0) return;
  console.log("\nWhat the explicit upgradeDraft07() would recover (never applied implicitly):");
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
}

await main(process.argv.slice(2));
