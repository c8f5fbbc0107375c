import { readFileSync, readdirSync } from "node:fs";
const [dir, match, filter] = process.argv.slice(2);
const f = readdirSync(dir).filter(x => x.endsWith(".cpuprofile"))[0];
const p = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
const byId = new Map(p.nodes.map(n => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = n => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*\/(node_modules|dist)\//, "$1/")}:${n.callFrame.lineNumber}`;
const counts = new Map(); for (let i = 0; i < p.samples.length; i++) counts.set(p.samples[i], (counts.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
let tot = 0, all = 0; const self = new Map(), incl = new Map();
for (const [id, t] of counts) { all += t; let cur = id, hit = !match; const seen = new Set(); const chain = [];
  while (cur !== undefined) { const k = key(byId.get(cur)); chain.push(k); if (match && k.includes(match)) hit = true; cur = parent.get(cur); }
  if (!hit) continue; tot += t; const k = key(byId.get(id)); self.set(k, (self.get(k) ?? 0) + t);
  for (const c of chain) if (!seen.has(c)) { seen.add(c); incl.set(c, (incl.get(c) ?? 0) + t); } }
console.log("subtree ms", tot / 1000, "of", all / 1000);
const show = (m) => [...m].filter(([k]) => !filter || new RegExp(filter).test(k)).sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, t]) => `${(100 * t / tot).toFixed(1).padStart(5)}% ${k}`).join("\n");
console.log("SELF\n" + show(self)); if (process.env.INCL) console.log("INCL\n" + show(incl));
