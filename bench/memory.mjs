// Retained heap per compiled schema, measured in a child process started with --expose-gc (one library and scenario
// per process): heapUsed after gc, before vs after compiling (and calling once) every schema while holding them all.
// Usage (internal): node --expose-gc bench/memory.mjs <library> <items.json>
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";

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

function runChild(lib, file) {
  const args = ["--expose-gc", "--max-old-space-size=3072", fileURLToPath(import.meta.url), lib, file];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20, timeout: 240_000 }, (err, stdout, stderr) => {
      resolve(err ? { error: (stderr || err.message).trim().split("\n").pop() } : JSON.parse(stdout));
    });
  });
}

/** scenarios: [{ name, items }]; runs every (library, scenario) child, two at a time. Returns { scenario: { lib } }. */
export async function measureMemory(libs, scenarios, log) {
  const out = {};
  const jobs = [];
  for (const s of scenarios) {
    const file = join(tmpdir(), `bench-memory-${process.pid}-${s.name}.json`);
    writeFileSync(file, JSON.stringify({ items: s.items }));
    out[s.name] = {};
    for (const lib of libs) jobs.push({ scenario: s.name, lib, file });
  }
  const work = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const result = await runChild(job.lib, job.file);
      if (result.error) log(`- memory ${job.scenario}/${job.lib}: failed (${result.error})`);
      out[job.scenario][job.lib] = result;
    }
  };
  try {
    await Promise.all([work(), work()]);
  } finally {
    for (const s of scenarios) unlinkSync(join(tmpdir(), `bench-memory-${process.pid}-${s.name}.json`));
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  await child(process.argv.slice(2));
}
