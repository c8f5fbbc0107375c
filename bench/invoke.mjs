// The gateway's per-call path (the hot-set-invoke workload): `Execution.invoke` on a bundle `ToolCatalog.admitBatch`
// admitted, beside what a host doing the same by hand spends, its tools compiled with `compile`: look the tool up,
// `isValid` the arguments, call its own two stages and call and await its own `dispatch` (the host's own work); and
// `isValid` alone. All three run on the same calls with the same trivial host, this library's builds only (no peer has
// a gateway).
import { medianRatio, quartiles, summary } from "./stats.mjs";

/** The host: every stage a host may give, each allowing at once, and a dispatch answering at once. */
const host = {
  authorize: () => true,
  approve: () => true,
  dispatch: () => DISPATCHED,
};
const DISPATCHED = { content: [] };

/** The tool descriptors of the cases, named t0, t1, … (corpus ids are not tool names). */
const descriptors = (cases) =>
  cases.map((c, i) => ({ name: `t${i}`, revision: "r1", description: "a bench tool", inputSchema: c.schema }));

/**
 * `Execution.invoke` and the hand-made path over the admitted cases. Returns [{ suffix, async, fns, args }]: the calls
 * of each way, in the workload's order (`pairs` maps (case, index, test) to what a call needs).
 */
export function invokeWays(engine, cases, order) {
  const { Execution, ToolCatalog, compile } = engine;
  const admitted = ToolCatalog.admitBatch(descriptors(cases), { formatAssertion: false });
  if (!admitted.ok) throw new Error(`admitBatch refused the hot set: ${admitted.error.message}`);
  const bundle = admitted.value;
  const bound = (v) => (Object.hasOwn(v, "isValid") ? v.isValid : v.isValid.bind(v));
  const byName = new Map(cases.map((c, i) => [`t${i}`, bound(compile(c.schema))]));
  // What a host writes without the gateway: a lookup, the arguments checked, then its own stages and its own dispatch
  // awaited (the host's own work is the same on both ways: its two stages and its dispatch, each called once).
  const byHand = async (call) => {
    const isValid = byName.get(call.name);
    if (isValid === undefined || !isValid(call.arguments ?? {})) return false;
    const context = { name: call.name, arguments: call.arguments };
    if (host.authorize(context) !== true || host.approve(context) !== true) return false;
    return (await host.dispatch(context)) === DISPATCHED;
  };
  const invoke = async (call) => (await Execution.invoke(bundle, call, host)).ok;
  // One function per tool for each way (the same code), so the warm-up gives every tool its calls (timing.mjs).
  const perTool = (way) => new Map(cases.map((c, i) => [`t${i}`, (call) => way(call)]));
  const invokes = perTool(invoke);
  const byHands = perTool(byHand);
  const calls = order(cases, (c, i, t) => ({ name: `t${i}`, arguments: t.data }));
  const ways = [
    { suffix: "", async: true, fns: calls.map((call) => invokes.get(call.name)), args: calls },
    { suffix: " isValid+host", async: true, fns: calls.map((call) => byHands.get(call.name)), args: calls },
    {
      suffix: " isValid",
      async: false,
      fns: calls.map((call) => byName.get(call.name)),
      args: calls.map((call) => call.arguments),
    },
  ];
  return ways.map((w) => ({ ...w, warm: { fns: w.fns, args: w.args } }));
}

/** The entry names of one build's ways (its invoke, its hand-made path, its isValid alone). */
export const WAY_SUFFIXES = ["", " isValid+host", " isValid"];

/**
 * The figures of the hot-set-invoke workload: per entry, as steady state gives them, with `ratio` the median of the
 * per-round ratios to the same build's hand-made path (`<build> isValid+host`), and with a baseline build, each way's
 * ratio to the baseline's same way.
 */
export function invokeSummary(facts, perCall, builds) {
  const out = {};
  for (const build of builds) {
    const names = WAY_SUFFIXES.map((s) => build + s);
    const mine = facts.filter((f) => names.includes(f.name));
    const figures = summary(mine, perCall, `${build} isValid+host`);
    // summary's own ratio to "baseline" would set every way against the baseline build's invoke: set below instead.
    for (const f of Object.values(figures)) {
      delete f.ratioToBaseline;
      delete f.ratioToBaselineQuartiles;
    }
    Object.assign(out, figures);
  }
  if (!builds.includes("baseline")) return out;
  for (const build of builds.filter((b) => b !== "baseline"))
    for (const suffix of WAY_SUFFIXES) {
      const xs = perCall.get(build + suffix);
      const base = perCall.get("baseline" + suffix);
      const perRound = xs.map((x, i) => x / base[i]);
      out[build + suffix].ratioToBaseline = medianRatio(xs, base);
      out[build + suffix].ratioToBaselineQuartiles = quartiles(perRound);
    }
  return out;
}
