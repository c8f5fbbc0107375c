// One workload's steady state, in a fresh process started by steady.mjs, so that what earlier workloads taught V8
// (about the libraries' shared code, or the instances) cannot shape this one: every library side by side, as the
// `--only` selection or the workload order would otherwise change the figures. Prints one JSON object.
// Usage (internal): node bench/steady-child.mjs <workload.json>
import { readFileSync } from "node:fs";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { invokeSummary, invokeWays } from "./invoke.mjs";
import { interleave, ownCopy, steadyCalls } from "./prepare.mjs";
import { measureSteady, timeRounds } from "./steady.mjs";
import { sinkValue, timingFacts } from "./timing.mjs";

const data = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { name, kind, cases, libs, settings, remotes, copies, interleaved } = data;
const problems = [];
const peers = await loadPeers(remotes ? suiteRemotes() : new Map(), (line) => problems.push(line), libs);
if (peers.length !== libs.length) throw new Error(problems.join("; "));
const entries = [];
let results;
if (kind === "invoke") {
  // Each build's three ways (invoke.mjs), all interleaved in the same rounds.
  for (const peer of peers)
    for (const way of invokeWays(await peer.module, ownCopy(cases), interleave))
      entries.push({ name: peer.name + way.suffix, ...way });
  const perCall = await timeRounds(name, entries, settings);
  results = invokeSummary(entries.map(timingFacts), perCall, libs);
} else {
  for (const peer of peers)
    entries.push({ name: peer.name, ...(await steadyCalls(kind, peer, cases, copies, interleaved)) });
  results = await measureSteady(name, entries, settings);
}
process.stderr.write(`sink ${sinkValue()}\n`);
process.stdout.write(JSON.stringify(results));
