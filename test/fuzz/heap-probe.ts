/**
 * Child-process probe for resources.test.ts: run as `node --expose-gc heap-probe.js --probe <count> <mode>`.
 * Compiles `count` validators from the catalog tool schemas (each a fresh copy; a third carry a unique `$id`,
 * a third go through InputSchema), validates one instance with each, and either drops them ("drop") or keeps
 * them ("keep", the sensitivity control). Prints one JSON line: heap used at baseline and after, in bytes.
 * Does nothing without `--probe` (node --test loads every file under build/test).
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compile, InputSchema } from "../../src/index.js";
import { repoRoot } from "../suite/locate.js";
import { structuredCloneSafe } from "./mutations.js";

function settle(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  for (let i = 0; i < 6; i++) gc();
  return process.memoryUsage().heapUsed;
}

function schemas(): Record<string, unknown>[] {
  const dir = join(repoRoot, "fixtures", "catalogs");
  const out: Record<string, unknown>[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".json") && x !== "broken.json")
    .sort()) {
    const catalog = JSON.parse(readFileSync(join(dir, f), "utf8")) as {
      tools: { inputSchema: Record<string, unknown> }[];
    };
    for (const t of catalog.tools) {
      const s = t.inputSchema;
      if (typeof s["$schema"] === "string" && s["$schema"].includes("draft-07")) continue;
      out.push(s);
    }
  }
  return out;
}

function run(count: number, mode: "drop" | "keep"): void {
  const pool = schemas();
  const kept: unknown[] = [];
  const once = (i: number): unknown => {
    const schema = structuredCloneSafe(pool[i % pool.length] as Record<string, unknown>);
    if (i % 3 === 1) schema["$id"] = `https://leak.test/tool/${i}`;
    if (i % 3 === 2) {
      const r = InputSchema.validateSchema(schema);
      if (!r.ok) throw new Error(`catalog schema refused: ${r.error.message}`);
      r.value.validate({});
      return r.value;
    }
    const v = compile(schema);
    v.validate({}, { output: "basic" });
    v.isValid({ unexpected: true });
    return v;
  };
  for (let i = 0; i < 300; i++) once(i); // warm up: meta-schema validators, module caches, JIT
  const baseline = settle();
  for (let i = 0; i < count; i++) {
    const v = once(i);
    if (mode === "keep") kept.push(v);
  }
  const after = settle();
  process.stdout.write(`${JSON.stringify({ baseline, after, kept: kept.length })}\n`);
}

const args = process.argv.slice(2);
if (args[0] === "--probe") run(Number(args[1] ?? 10_000), args[2] === "keep" ? "keep" : "drop");
