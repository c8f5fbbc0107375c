// Steady state, the way a hot tool is used: each library runs through its own copy of the timing loop, every function
// it is timed through (each compiled validator) is warmed with `warmCalls` calls (see warm() for heavy calls) so that
// generated and interpreted code alike are optimised, then rounds run interleaved with the order rotated each round;
// the figure is the median of the per-round ratios to ajv.
import { fileURLToPath } from "node:url";
import { mentionsRemote, runChild, withDataFile } from "./child.mjs";
import { median, medianRatio, quartiles, rotated } from "./stats.mjs";

let sink = 0;
/** Everything the loops returned, folded together and printed, so no call can be optimised away. */
export const sinkValue = () => sink;

/** This library's own instance of the timing loop for this workload (see loop.mjs). */
const loopFor = (lib, workload) => {
  const query = `lib=${encodeURIComponent(lib)}&workload=${encodeURIComponent(workload)}`;
  return import(new URL(`./loop.mjs?${query}`, import.meta.url).href);
};

/** Times `passes` passes over `calls` ({ fns, args }: the sample's calls, or the warm-up's). */
async function sample(entry, passes, calls = entry) {
  const run = entry.loop[`run${entry.admit ? "Admit" : ""}${entry.async ? "Async" : ""}`];
  const t0 = process.hrtime.bigint();
  const result = run(calls.fns, calls.args, passes);
  const truthy = entry.async ? await result : result;
  const ns = Number(process.hrtime.bigint() - t0);
  sink = (sink + truthy) | 0;
  return ns;
}

/** The fewest calls any one function gets in a pass. */
function minCallsPerPass(fns) {
  const calls = new Map();
  for (const f of fns) calls.set(f, (calls.get(f) ?? 0) + 1);
  return Math.min(...calls.values());
}

/**
 * Warms the entry up, then picks the passes per sample so that one sample lasts at least sampleMs. Every function
 * gets `warmCalls` calls. Only where one call is heavy (over `heavyCallMs` on average: a large document, a 1,000-item
 * array) may the warm-up stop once it has taken `warmCapMs`, and never before every function has had `warmFloor`
 * calls: the loops inside a call that long run thousands of times per call, so V8 has optimised it by then. The calls
 * actually made are reported.
 */
async function warm(entry, { warmCalls, warmFloor, warmCapMs, heavyCallMs, sampleMs }) {
  const perFunction = minCallsPerPass(entry.warm.fns);
  const total = Math.ceil(warmCalls / perFunction);
  const floor = Math.ceil(warmFloor / perFunction);
  const capNs = warmCapMs * 1e6;
  const start = process.hrtime.bigint();
  let perPass = 0;
  let done = 0;
  for (let chunk = 1; done < total; chunk *= 2) {
    const spent = Number(process.hrtime.bigint() - start);
    const heavy = perPass / entry.warm.fns.length > heavyCallMs * 1e6;
    if (heavy && spent >= capNs && done >= floor) break;
    let n = Math.min(chunk, total - done);
    if (heavy) n = Math.min(n, Math.max(floor - done, Math.ceil((capNs - spent) / perPass), 1));
    perPass = (await sample(entry, n, entry.warm)) / n;
    done += n;
  }
  entry.warmCalls = done * perFunction;
  perPass *= entry.fns.length / entry.warm.fns.length;
  entry.passes = Math.max(1, Math.ceil((sampleMs * 1e6) / perPass));
  const ns = await sample(entry, entry.passes);
  entry.passes = Math.max(1, Math.ceil((sampleMs * 1e6 * entry.passes) / ns));
}

/**
 * entries: [{ name, fns, args, async }], one per library. Returns per library the median ns per call and the median of
 * the per-round ratios to the `baseline` library.
 */
export async function measureSteady(workload, entries, settings, baseline = "ajv") {
  for (const entry of entries) {
    entry.loop = await loopFor(entry.name, workload);
    await warm(entry, settings);
  }
  const perCall = new Map(entries.map((e) => [e.name, []]));
  for (let r = 0; r < settings.rounds; r++) {
    for (const entry of rotated(entries, r)) {
      const ns = await sample(entry, entry.passes);
      perCall.get(entry.name).push(ns / (entry.passes * entry.fns.length));
    }
  }
  const base = perCall.get(baseline);
  const out = {};
  for (const entry of entries) {
    const xs = perCall.get(entry.name);
    out[entry.name] = {
      ns: median(xs),
      ratio: medianRatio(xs, base),
      ratioQuartiles: base ? quartiles(xs.map((x, i) => x / base[i])) : null,
      rounds: xs.length,
      callsPerPass: entry.fns.length,
      passesPerSample: entry.passes,
      warmCallsPerFunction: entry.warmCalls,
      minNs: Math.min(...xs),
      maxNs: Math.max(...xs),
    };
  }
  return out;
}

const CHILD = fileURLToPath(new URL("./steady-child.mjs", import.meta.url));

/** Measures one workload's steady state in a fresh process (steady-child.mjs); returns { lib: result } or { error }. */
export function steadyInChild(workload, cases, libs, settings) {
  const data = { name: workload.name, kind: workload.kind, cases, libs, settings, remotes: mentionsRemote(cases) };
  return withDataFile(data, (file) => runChild(CHILD, [file], { timeoutMs: 1_200_000 }));
}
