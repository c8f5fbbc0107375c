import { loadPeers } from "./peers.mjs";
import { suiteRemotes } from "./data.mjs";
import { WORKLOADS, context } from "./workloads/index.mjs";
import { invokeWays } from "./invoke.mjs";
const peers = await loadPeers(suiteRemotes(), () => {}, ["ours", "ajv"]);
const ctx = context(peers, () => {});
const which = process.argv[2] ?? "hot-set-invoke-valid";
const cases = await WORKLOADS.find((w) => w.name === which).cases(ctx);
const engine = await import("../dist/index.js");
const order = (cs, f) => { const out = []; const max = Math.max(...cs.map((c) => c.tests.length)); for (let t = 0; t < max; t++) cs.forEach((c, i) => { if (c.tests[t]) out.push(f(c, i, c.tests[t])); }); return out; };
const ways = invokeWays(engine, cases, order);
for (let rep = 0; rep < 3; rep++) for (const w of ways.slice(0, Number(process.env.WAYS ?? 3))) {
  const { fns, args } = w; const n = fns.length; const R = Math.ceil(200000 / n);
  const t = process.hrtime.bigint();
  if (w.async) { for (let r = 0; r < R; r++) for (let i = 0; i < n; i++) await fns[i](args[i]); }
  else { for (let r = 0; r < R; r++) for (let i = 0; i < n; i++) fns[i](args[i]); }
  if (rep === 2 || process.env.ALL) console.log(which, "way" + w.suffix, (Number(process.hrtime.bigint() - t) / (R * n)).toFixed(0), "ns");
}
