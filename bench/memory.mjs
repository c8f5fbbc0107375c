// Retained heap per compiled schema, measured in a child process started with --expose-gc (one library and scenario
// per process): heapUsed after gc, before vs after compiling (and calling once) every schema while holding them all.
// Usage (internal): node --expose-gc bench/memory.mjs <library> <items.json>
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runChild, withDataFile } from "./child.mjs";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";

const SELF = fileURLToPath(import.meta.url);

const settle = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};

async function child([lib, file]) {
  const { items } = JSON.parse(readFileSync(file, "utf8"));
  const [peer] = await loadPeers(suiteRemotes(), () => {}, [lib]);
  // one throw-away compile so lazily initialised library state (meta-schemas, tables) is not charged to the schemas
  await peer.compile(items[0].schema);
  const before = settle();
  const held = [];
  for (const it of items) {
    const check = await peer.compile(it.schema);
    check(it.args);
    held.push(check);
  }
  const after = settle();
  process.stdout.write(
    JSON.stringify({ count: held.length, bytes: after - before, perSchema: (after - before) / held.length }),
  );
}

/** scenarios: [{ name, items }]; runs every (library, scenario) child, two at a time. Returns { scenario: { lib } }. */
export async function measureMemory(libs, scenarios, log) {
  const out = {};
  const jobs = [];
  for (const s of scenarios) {
    out[s.name] = {};
    for (const lib of libs) jobs.push({ scenario: s, lib });
  }
  const nodeArgs = ["--expose-gc", "--max-old-space-size=3072"];
  const work = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const { scenario, lib } = job;
      const result = await withDataFile({ items: scenario.items }, (file) =>
        runChild(SELF, [lib, file], { nodeArgs, timeoutMs: 240_000 }),
      );
      if (result.error) log(`- memory ${scenario.name}/${lib}: failed (${result.error})`);
      out[scenario.name][lib] = result;
    }
  };
  await Promise.all([work(), work()]);
  return out;
}

if (process.argv[1] === SELF) {
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  await child(process.argv.slice(2));
}
