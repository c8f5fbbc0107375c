// Retained heap per compiled schema, measured in a child process started with --expose-gc (one library per process).
// Usage (internal): node --expose-gc bench/memory.mjs <peer> <suite|catalog> <data.json>
import { readFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PEERS } from "./peers.mjs";
import { suiteCases, suiteRemotes } from "./data.mjs";

const settle = () => {
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};

async function child([peerId, scenario, dataFile]) {
  const data = JSON.parse(readFileSync(dataFile, "utf8"));
  const peer = await PEERS[peerId](suiteRemotes());
  let items;
  if (scenario === "suite") {
    const cases = suiteCases();
    items = data.suiteIndices.map((i) => ({ schema: cases[i].schema, args: cases[i].tests[0].data }));
  } else {
    items = [];
    for (let n = 0; items.length < data.catalogSize; n++) {
      const t = data.tools[n % data.tools.length];
      items.push({
        schema: { ...JSON.parse(JSON.stringify(t.schema)), $id: `https://bench.invalid/tools/${n}/tool-${n}` },
        args: t.args,
      });
    }
  }
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

/** Runs every (peer, scenario) child, two at a time; returns { scenario: { peer: result | { error } } }. */
export async function measureMemory(peerIds, dataFile, log) {
  const jobs = [];
  for (const scenario of ["suite", "catalog"]) for (const p of peerIds) jobs.push({ scenario, p });
  const out = { suite: {}, catalog: {} };
  const run = ({ scenario, p }) =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ["--expose-gc", "--max-old-space-size=3072", fileURLToPath(import.meta.url), p, scenario, dataFile],
        { maxBuffer: 1 << 20, timeout: 240000 },
        (err, stdout, stderr) => {
          if (err) {
            out[scenario][p] = { error: (stderr || err.message).trim().split("\n").pop() };
            log(`- memory ${scenario}/${p}: failed (${out[scenario][p].error})`);
          } else out[scenario][p] = JSON.parse(stdout);
          resolve();
        },
      );
    });
  const queue = [...jobs];
  await Promise.all(
    [0, 1].map(async () => {
      while (queue.length) await run(queue.shift());
    }),
  );
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (typeof globalThis.gc !== "function") throw new Error("run with --expose-gc");
  await child(process.argv.slice(2));
}
