// Steady state, the way a hot tool is used: each library runs through its own copy of the timing loop, every
// function it is timed through (each compiled validator) is warmed with at least `warmCalls` calls so that generated
// and interpreted code alike are optimised, then rounds run interleaved with the order rotated each round; the figure
// is the median of the per-round ratios to ajv.
import { median, medianRatio, rotated } from "./stats.mjs";

let sink = 0;
/** Everything the loops returned, folded together and printed, so no call can be optimised away. */
export const sinkValue = () => sink;

/** This library's own instance of the timing loop for this workload (see loop.mjs). */
const loopFor = (lib, workload) => {
  const query = `lib=${encodeURIComponent(lib)}&workload=${encodeURIComponent(workload)}`;
  return import(new URL(`./loop.mjs?${query}`, import.meta.url).href);
};

async function sample(entry, passes) {
  const t0 = process.hrtime.bigint();
  const truthy = entry.async
    ? await entry.loop.runAsync(entry.fns, entry.args, passes)
    : entry.loop.run(entry.fns, entry.args, passes);
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

/** Warms the entry up, then picks the passes per sample so that one sample lasts at least sampleMs. */
async function warm(entry, { warmCalls, sampleMs }) {
  const total = Math.ceil(warmCalls / minCallsPerPass(entry.fns));
  let perPass = 0;
  for (let done = 0, chunk = 1; done < total; chunk *= 2) {
    const n = Math.min(chunk, total - done);
    perPass = (await sample(entry, n)) / n;
    done += n;
  }
  entry.warmPasses = total;
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
      rounds: xs.length,
      callsPerPass: entry.fns.length,
      passesPerSample: entry.passes,
      warmPasses: entry.warmPasses,
      minNs: Math.min(...xs),
      maxNs: Math.max(...xs),
    };
  }
  return out;
}
