// Cold: what a process pays the first time it meets a schema. A fresh process per library, workload and round
// (cold-child.mjs) compiles each schema, then makes its first calls; rounds rotate the library order, and the figure is
// the median over rounds of (compile + first calls) per schema, with the median of the per-round ratios to ajv.
import { fileURLToPath } from "node:url";
import { mentionsRemote, runChild, withDataFile } from "./child.mjs";
import { median, medianRatio, rotated } from "./stats.mjs";

const CHILD = fileURLToPath(new URL("./cold-child.mjs", import.meta.url));

/** Returns { lib: { ns, compileNs, callsNs, ratio, compileRatio, callsRatio, rounds } | { error } }. */
export async function measureCold(workload, cases, libs, { coldRounds }, log, baseline = "ajv") {
  const runs = new Map(libs.map((l) => [l, []]));
  const failed = {};
  const data = { cases, calls: workload.coldCalls, remotes: mentionsRemote(cases) };
  await withDataFile(data, async (file) => {
    for (let r = 0; r < coldRounds; r++) {
      for (const lib of rotated(libs, r)) {
        if (failed[lib]) continue;
        const run = await runChild(CHILD, [lib, file]);
        if (run.error || run.mismatches) {
          failed[lib] = { error: run.error ?? `${run.mismatches} verdicts differ from the expected ones` };
          log(`- ${workload.name} (cold): ${lib} failed (${failed[lib].error})`);
        } else runs.get(lib).push(run);
      }
    }
  });
  const perSchema = (lib, pick) => runs.get(lib).map((run) => pick(run) / cases.length);
  const total = (run) => run.compileNs + run.firstNs + run.restNs;
  const firstCalls = (run) => run.firstNs + run.restNs;
  const out = { ...failed };
  const complete = (lib) => !failed[lib] && runs.get(lib)?.length === coldRounds;
  const base = complete(baseline) ? baseline : null;
  for (const lib of libs.filter(complete)) {
    const ratio = (pick) => (base ? medianRatio(perSchema(lib, pick), perSchema(base, pick)) : null);
    out[lib] = {
      ns: median(perSchema(lib, total)),
      compileNs: median(perSchema(lib, (run) => run.compileNs)),
      firstCallNs: median(perSchema(lib, (run) => run.firstNs)),
      callsNs: median(perSchema(lib, firstCalls)),
      loadNs: median(runs.get(lib).map((run) => run.loadNs)),
      ratio: ratio(total),
      compileRatio: ratio((run) => run.compileNs),
      callsRatio: ratio(firstCalls),
      rounds: runs.get(lib).length,
    };
  }
  return out;
}
