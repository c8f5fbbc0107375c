// The timing both hot regimes share (steady.mjs, mixed-child.mjs): each library runs through its own copy of the timing
// loop, every function it is timed through (each compiled validator) is warmed with `warmCalls` calls (see warm() for
// heavy calls) so that generated and interpreted code alike are optimised, and one sample lasts at least sampleMs.

let sink = 0;
/** Everything the loops returned, folded together and printed, so no call can be optimised away. */
export const sinkValue = () => sink;

/** This library's own instance of the timing loop for this workload (see loop.mjs). */
export const loopFor = (lib, workload) => {
  const query = `lib=${encodeURIComponent(lib)}&workload=${encodeURIComponent(workload)}`;
  return import(new URL(`./loop.mjs?${query}`, import.meta.url).href);
};

/**
 * The clock samples are read from: the process's CPU time (`process.cpuUsage`, user and system, every thread) unless
 * BENCH_CLOCK=wall asks for the wall clock. On a machine other work loads, wall time counts whatever ran while the
 * process waited for a core; CPU time does not (it still counts V8's own helper threads: the GC's, the compiler's).
 */
export const CLOCK = process.env.BENCH_CLOCK === "wall" ? "wall" : "cpu";

const now =
  CLOCK === "wall"
    ? () => Number(process.hrtime.bigint())
    : () => {
        const { user, system } = process.cpuUsage();
        return (user + system) * 1000;
      };

/** Times `passes` passes over `calls` ({ fns, args }: the sample's calls, or the warm-up's); returns ns. */
async function sample(entry, passes, calls = entry) {
  const run = entry.loop[`run${entry.admit ? "Admit" : ""}${entry.async ? "Async" : ""}`];
  const t0 = now();
  const result = run(calls.fns, calls.args, passes);
  const truthy = entry.async ? await result : result;
  const ns = now() - t0;
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
export async function warm(entry, { warmCalls, warmFloor, warmCapMs, heavyCallMs, sampleMs }) {
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
    perPass = Math.max(await sample(entry, n, entry.warm), 1) / n;
    done += n;
  }
  entry.warmCalls = done * perFunction;
  perPass *= entry.fns.length / entry.warm.fns.length;
  entry.passes = Math.max(1, Math.ceil((sampleMs * 1e6) / perPass));
  await calibrate(entry, sampleMs);
}

/** Times one sample at the current passes, then sets the passes so that a sample lasts at least sampleMs. */
export async function calibrate(entry, sampleMs) {
  const ns = Math.max(await sample(entry, entry.passes), 1000);
  entry.passes = Math.max(1, Math.ceil((sampleMs * 1e6 * entry.passes) / ns));
}

/** One sample: its time per call, in ns. */
export const perCallNs = async (entry) => (await sample(entry, entry.passes)) / (entry.passes * entry.fns.length);

/** What the report says about how a library was timed on a workload (see stats.mjs summary). */
export const timingFacts = (entry) => ({
  name: entry.name,
  callsPerPass: entry.fns.length,
  passesPerSample: entry.passes,
  warmCallsPerFunction: entry.warmCalls,
});
