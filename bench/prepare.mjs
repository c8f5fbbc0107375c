// The verdict check that decides whether a library takes part in a workload, and what each kind of workload hands
// the timing loop: a list of calls `fns[i](args[i])`.
//   validate: one call per (compiled schema, instance)
//   compile:  one fresh compile per schema (the result is not called)
//   admit:    one fresh compile per tool, then its first call

export class Excluded extends Error {}

const firstLine = (e) =>
  String(e?.message ?? e)
    .split("\n")[0]
    .slice(0, 100);
const show = (x) => {
  const s = JSON.stringify(x);
  return s === undefined ? String(x) : s.length > 60 ? s.slice(0, 57) + "..." : s;
};

/** The case's validator: the library's 2020-12 meta-schema validator for a `meta` case, else its compiled schema. */
export const compileCase = (peer, c) => (c.meta ? peer.metaValidator() : peer.compile(c.schema));

/** Compiles every case and checks every expected verdict; throws Excluded naming the first difference. */
export async function checkedValidators(peer, cases) {
  const checks = [];
  for (const c of cases) {
    let check;
    try {
      check = await compileCase(peer, c);
    } catch (e) {
      throw new Excluded(`cannot compile ${c.id}: ${firstLine(e)}`);
    }
    for (const t of c.tests) {
      let got;
      try {
        got = check(t.data);
      } catch (e) {
        got = `throws (${firstLine(e)})`;
      }
      if (got !== t.valid) throw new Excluded(`${c.id}: verdict ${got} for ${show(t.data)}, expected ${t.valid}`);
    }
    checks.push(check);
  }
  return checks;
}

/** The calls one steady-state sample makes: { fns, args, async }. Throws Excluded when a verdict differs. */
export async function steadyCalls(kind, peer, cases) {
  const checks = await checkedValidators(peer, cases);
  if (kind === "validate") {
    const fns = [];
    const args = [];
    cases.forEach((c, i) =>
      c.tests.forEach((t) => {
        fns.push(checks[i]);
        args.push(t.data);
      }),
    );
    return { fns, args, async: false };
  }
  const async = Boolean(peer.async);
  if (kind === "compile") return { fns: cases.map(() => peer.compileFresh), args: cases.map((c) => c.schema), async };
  const admit = async
    ? async (c) => (await peer.compile(c.schema))(c.tests[0].data)
    : (c) => peer.compile(c.schema)(c.tests[0].data);
  return { fns: cases.map(() => admit), args: cases, async };
}
