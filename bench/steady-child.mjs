// One workload's steady state, in a fresh process started by steady.mjs, so that what earlier workloads taught V8
// (about the libraries' shared code, or the instances) cannot shape this one: every library side by side, as the
// `--only` selection or the workload order would otherwise change the figures. Prints one JSON object.
// Usage (internal): node bench/steady-child.mjs <workload.json>
import { readFileSync } from "node:fs";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { steadyCalls } from "./prepare.mjs";
import { measureSteady } from "./steady.mjs";
import { sinkValue } from "./timing.mjs";

const { name, kind, cases, libs, settings, remotes, copies } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const problems = [];
const peers = await loadPeers(remotes ? suiteRemotes() : new Map(), (line) => problems.push(line), libs);
if (peers.length !== libs.length) throw new Error(problems.join("; "));
const entries = [];
for (const peer of peers) entries.push({ name: peer.name, ...(await steadyCalls(kind, peer, cases, copies)) });
const results = await measureSteady(name, entries, settings);
process.stderr.write(`sink ${sinkValue()}\n`);
process.stdout.write(JSON.stringify(results));
