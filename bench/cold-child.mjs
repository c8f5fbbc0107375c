// One cold measurement, in a fresh process started by cold.mjs: load one library, then for each case compile it and
// make its first `calls` validations (cycling through the case's instances). Prints one JSON object.
// Usage (internal): node bench/cold-child.mjs <library> <cases.json>
import { readFileSync } from "node:fs";
import { suiteRemotes } from "./data.mjs";
import { loadPeers } from "./peers.mjs";
import { compileCase } from "./prepare.mjs";

const [lib, file] = process.argv.slice(2);
const { cases, calls, remotes } = JSON.parse(readFileSync(file, "utf8"));
const registry = remotes ? suiteRemotes() : new Map();
const now = () => process.hrtime.bigint();

const loadStart = now();
const problems = [];
const [peer] = await loadPeers(registry, (line) => problems.push(line), [lib]);
if (!peer) throw new Error(problems.join("; "));
const loadNs = Number(now() - loadStart);

let compileNs = 0;
let firstNs = 0;
let restNs = 0;
let mismatches = 0;
for (const c of cases) {
  const tests = c.tests;
  const t0 = now();
  const check = peer.async ? await compileCase(peer, c) : compileCase(peer, c);
  const t1 = now();
  if (check(tests[0].data) !== tests[0].valid) mismatches++;
  const t2 = now();
  for (let k = 1; k < calls; k++) {
    const t = tests[k % tests.length];
    if (check(t.data) !== t.valid) mismatches++;
  }
  const t3 = now();
  compileNs += Number(t1 - t0);
  firstNs += Number(t2 - t1);
  restNs += Number(t3 - t2);
}
process.stdout.write(JSON.stringify({ loadNs, compileNs, firstNs, restNs, mismatches }));
