// Steady state, the way a hot tool is used: in a fresh process per workload, each library is warmed and timed through
// its own copy of the timing loop (timing.mjs), then rounds run interleaved with the order rotated each round; the
// figure is the median of the per-round ratios to ajv.
import { fileURLToPath } from "node:url";
import { mentionsRemote, runChild, withDataFile } from "./child.mjs";
import { rotated, summary } from "./stats.mjs";
import { loopFor, perCallNs, timingFacts, warm } from "./timing.mjs";

/**
 * entries: [{ name, fns, args, async }], one per library. Returns per library the median ns per call and the median of
 * the per-round ratios to the `baseline` library.
 */
export async function measureSteady(workload, entries, settings, baseline = "ajv") {
  const perCall = await timeRounds(workload, entries, settings);
  // The facts after the rounds: the warm-up and the passes are set while timing.
  return summary(entries.map(timingFacts), perCall, baseline);
}

/** Warms every entry, then times the rounds; returns each entry's ns per call in each round, by name. */
export async function timeRounds(workload, entries, settings) {
  for (const entry of entries) {
    entry.loop = await loopFor(entry.name, workload);
    await warm(entry, settings);
  }
  const perCall = new Map(entries.map((e) => [e.name, []]));
  for (let r = 0; r < settings.rounds; r++) {
    for (const entry of rotated(entries, r)) perCall.get(entry.name).push(await perCallNs(entry));
  }
  return perCall;
}

const CHILD = fileURLToPath(new URL("./steady-child.mjs", import.meta.url));

/**
 * Measures one workload's steady state in a fresh process (steady-child.mjs), with `copies` compiled copies of each
 * schema behind one call site (1: steady state; more: the rotating call site); returns { lib: result } or { error }.
 */
export function steadyInChild(workload, cases, libs, settings, copies = 1) {
  const remotes = mentionsRemote(cases);
  const { name, kind } = workload;
  const interleaved = Boolean(workload.interleaved);
  const data = { name, kind, cases, libs, settings, remotes, copies, interleaved };
  return withDataFile(data, (file) => runChild(CHILD, [file], { timeoutMs: 1_200_000 }));
}
