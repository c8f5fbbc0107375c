// The verdict check that decides whether a library takes part in a workload, and what each kind of workload hands
// the timing loop: a list of calls `fns[i](args[i])`.
//   validate: one call per (compiled schema, instance)
//   compile:  one fresh compile per schema (the result is not called)
//   admit:    one fresh compile per tool, then its first call
// Anything that calls into a library during timing lives in loop.mjs, of which each library has its own instance.

export class Excluded extends Error {}

const firstLine = (e) =>
  String(e?.message ?? e)
    .split("\n")[0]
    .slice(0, 100);
const show = (x) => {
  const s = JSON.stringify(x);
  return s === undefined ? String(x) : s.length > 60 ? s.slice(0, 57) + "..." : s;
};

/**
 * A library's own copy of cases, schemas and instances, as JSON.parse makes them (as a tool's arguments arrive).
 * Objects shared between libraries are not independent: one library's inline caches can change an instance's
 * representation for all (a shared 1,000-integer array moved from small-integer to generic elements made ajv 12x
 * slower on it), and some libraries write onto the schemas they are given.
 */
export const ownCopy = (cases) => JSON.parse(JSON.stringify(cases));

/**
 * The case's validator: the library's 2020-12 meta-schema validator for a `meta` case, its tool-call boundary for a
 * `boundary` case, else its compiled schema.
 */
export const compileCase = (peer, c) =>
  c.meta ? peer.metaValidator() : c.boundary || c.invoke ? peer.boundary(c.schema) : peer.compile(c.schema);

/** Compiles every case and checks every expected verdict; throws Excluded naming the first difference. */
export async function checkedValidators(peer, cases) {
  if (cases.some((c) => c.boundary) && !peer.boundary)
    throw new Excluded("no tool-call boundary (InputSchema) to time");
  if (cases.some((c) => c.invoke) && !peer.module) throw new Excluded("no gateway (Execution.invoke) to time");
  const checks = [];
  for (const c of cases) {
    let check;
    try {
      check = await compileCase(peer, c);
    } catch (e) {
      throw new Excluded(`cannot compile ${c.id}: ${firstLine(e)}`);
    }
    for (const [j, t] of c.tests.entries()) {
      let got;
      try {
        got = check(t.data);
      } catch (e) {
        got = `throws (${firstLine(e)})`;
      }
      if (got !== t.valid)
        throw new Excluded(`${c.id}, instance ${j}: verdict ${got} for ${show(t.data)}, expected ${t.valid}`);
    }
    checks.push(check);
  }
  return checks;
}

/**
 * The calls one steady-state sample makes, { fns, args, async }, and `warm`, the calls one warm-up pass makes: each
 * validator the same number of times (its instances in turn), so that warming every validator costs calls in
 * proportion to the validators rather than to the instances of the one with the most. Throws Excluded on a verdict
 * that differs. With `copies` above 1 (the rotating call site), each validate case is compiled that many times, each
 * from its own copy of the schema, and its calls rotate over the copies: one call site meets many compiled schemas of
 * one shape, as in a host with many tools.
 */
export async function steadyCalls(kind, peer, shared, copies = 1, interleaved = false) {
  if (kind === "validate" && copies > 1) return rotatingCalls(peer, shared, copies);
  const cases = ownCopy(shared);
  const checks = await checkedValidators(peer, cases);
  if (kind === "validate") {
    const pairs = interleaved
      ? interleave(cases, (c, i, t) => [checks[i], t.data])
      : cases.flatMap((c, i) => c.tests.map((t) => [checks[i], t.data]));
    const most = Math.max(...cases.map((c) => c.tests.length));
    const warm = [];
    for (let j = 0; j < most; j++) cases.forEach((c, i) => warm.push([checks[i], c.tests[j % c.tests.length].data]));
    return { ...calls(pairs), async: false, warm: calls(warm) };
  }
  const async = Boolean(peer.async);
  // admit: the loop calls fns[i](args[i].schema) and then the result on the case's first call (see loop.mjs)
  const pairs = cases.map((c) => (kind === "compile" ? [peer.compileFresh, c.schema] : [peer.compile, c]));
  return { ...calls(pairs), async, admit: kind === "admit", warm: calls(pairs) };
}

const calls = (pairs) => ({ fns: pairs.map((p) => p[0]), args: pairs.map((p) => p[1]) });

/**
 * Every call of every case once, the tools rotating: each case's first call in turn, then each one's second, and so
 * on (a case out of calls is passed over), so no tool is called twice in a row.
 */
export function interleave(cases, pair) {
  const out = [];
  const most = Math.max(...cases.map((c) => c.tests.length));
  for (let j = 0; j < most; j++) cases.forEach((c, i) => j < c.tests.length && out.push(pair(c, i, c.tests[j])));
  return out;
}

/** The rotating call site's calls: every instance of a case once per copy, the copies in turn. */
async function rotatingCalls(peer, shared, copies) {
  const sets = [];
  for (let k = 0; k < copies; k++) {
    const cases = ownCopy(shared);
    sets.push({ cases, checks: await checkedValidators(peer, cases) });
  }
  const pairs = [];
  shared.forEach((c, i) =>
    c.tests.forEach((_, j) => sets.forEach(({ cases, checks }) => pairs.push([checks[i], cases[i].tests[j].data]))),
  );
  return { ...calls(pairs), async: false, warm: calls(pairs) };
}
