// One library's mixed host, in a process started by mixed.mjs: it compiles the validators of every workload of the run,
// then warms each in turn exactly as steady state does (timing.mjs), so that the library's shared evaluator code has
// seen every shape before anything is timed. It answers the parent's requests one at a time: load the library, prepare
// (compile and warm), calibrate a workload's sample length, or time one sample of it.
// Usage (internal): node bench/mixed-child.mjs <library> <host.json>, with an IPC channel (child_process.fork).
import { readFileSync } from "node:fs";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { steadyCalls } from "./prepare.mjs";
import { calibrate, loopFor, perCallNs, sinkValue, timingFacts, warm } from "./timing.mjs";

const [lib, file] = process.argv.slice(2);
const { workloads, settings, remotes } = JSON.parse(readFileSync(file, "utf8"));
/** workload name -> this library's timing entry (see prepare.mjs steadyCalls) */
const entries = new Map();

let peer = null;

async function load() {
  const problems = [];
  [peer] = await loadPeers(remotes ? suiteRemotes() : new Map(), (line) => problems.push(line), [lib]);
  if (!peer) throw new Error(problems.join("; "));
  return true;
}

async function prepare() {
  if (!peer) throw new Error("the library is not loaded");
  for (const w of workloads.filter((x) => x.libs.includes(lib))) {
    const entry = { name: lib, ...(await steadyCalls(w.kind, peer, w.cases)) };
    entry.loop = await loopFor(lib, w.name);
    entries.set(w.name, entry);
  }
  for (const entry of entries.values()) await warm(entry, settings);
  return { workloads: entries.size };
}

const entry = (name) => {
  const e = entries.get(name);
  if (!e) throw new Error(`no validators for ${name} in this host`);
  return e;
};

const OPS = {
  load,
  prepare,
  calibrate: async ({ workload }) => {
    await calibrate(entry(workload), settings.sampleMs);
    return timingFacts(entry(workload));
  },
  sample: ({ workload }) => perCallNs(entry(workload)),
};

// Requests are answered in order, one at a time, so a sample never overlaps another.
let queue = Promise.resolve();
process.on("message", (msg) => {
  queue = queue.then(async () => {
    if (msg.op === "exit") {
      process.stderr.write(`sink ${sinkValue()}\n`);
      process.disconnect();
      return;
    }
    try {
      process.send({ id: msg.id, value: await OPS[msg.op](msg) });
    } catch (e) {
      process.send({ id: msg.id, error: String(e?.message ?? e).split("\n")[0] });
    }
  });
});
