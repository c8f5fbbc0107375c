// The shape every validation workload shares: a list of (schema, instances with expected verdicts).

export class Excluded extends Error {}

const show = (x) => {
  const s = JSON.stringify(x);
  return s === undefined ? String(x) : s.length > 60 ? s.slice(0, 57) + "..." : s;
};

/**
 * Compiles every case with `peer` and checks each verdict against the expected one; throws Excluded on any difference.
 */
export async function compileChecked(peer, cases) {
  const checks = [];
  const instances = [];
  for (const c of cases) {
    let check;
    try {
      check = await peer.compile(c.schema);
    } catch (e) {
      throw new Excluded(`cannot compile ${c.id ?? "a schema"}: ${String(e.message).split("\n")[0].slice(0, 100)}`);
    }
    for (const t of c.tests) {
      let got;
      try {
        got = check(t.data);
      } catch (e) {
        got = `throws (${String(e.message).split("\n")[0]})`;
      }
      if (got !== t.valid)
        throw new Excluded(`${c.id ?? "case"}: verdict ${got} for ${show(t.data)}, expected ${t.valid}`);
      checks.push(check);
      instances.push(t.data);
    }
  }
  return { checks, instances };
}

/** A workload timing one pass of every (compiled schema, instance) pair; the unit is one validation. */
export function validateWorkload(name, description, cases) {
  const n = cases.reduce((a, c) => a + c.tests.length, 0);
  return {
    name,
    description: `${description} (${cases.length} schemas, ${n} instances)`,
    unit: "validation",
    cases,
    async prepare(peer) {
      const { checks, instances } = await compileChecked(peer, cases);
      const len = checks.length;
      return {
        unitsPerOp: len,
        op: () => {
          let c = 0;
          for (let i = 0; i < len; i++) if (checks[i](instances[i])) c++;
          return c;
        },
      };
    },
  };
}
