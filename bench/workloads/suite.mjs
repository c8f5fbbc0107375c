// suite-validate and compile: the required official 2020-12 suite, restricted to the cases every library passes.
import { Excluded, validateWorkload } from "./common.mjs";

/** Keeps the cases that every peer compiles and answers correctly on every test; reports which peer lost which. */
export async function passingCases(peers, cases, log) {
  const kept = [];
  const lost = new Map(peers.map((p) => [p.name, 0]));
  for (const c of cases) {
    let ok = true;
    for (const p of peers) {
      let pass = true;
      try {
        const check = await p.compile(c.schema);
        for (const t of c.tests) {
          let v;
          try {
            v = check(t.data);
          } catch {
            v = undefined;
          }
          if (v !== t.valid) pass = false;
        }
      } catch {
        pass = false;
      }
      if (!pass) {
        lost.set(p.name, lost.get(p.name) + 1);
        ok = false;
      }
    }
    if (ok) kept.push(c);
  }
  log(
    `suite: kept ${kept.length} of ${cases.length} required test cases (${kept.reduce((a, c) => a + c.tests.length, 0)} of ${cases.reduce((a, c) => a + c.tests.length, 0)} tests); cases failed per library: ${[...lost].map(([k, v]) => `${k} ${v}`).join(", ")}`,
  );
  return kept;
}

export function suiteValidate(kept) {
  return validateWorkload(
    "suite-validate",
    "every instance of the required 2020-12 suite cases all libraries pass",
    kept,
  );
}

export function suiteCompile(kept) {
  const schemas = kept.map((c) => c.schema);
  return {
    name: "compile",
    unit: "schema compiled",
    description: `compile each of ${schemas.length} suite schemas from scratch (no cache reuse: see library notes)`,
    async prepare(peer) {
      try {
        for (const s of schemas) await peer.compileFresh(s);
      } catch (e) {
        throw new Excluded(`compile failed: ${e.message}`);
      }
      if (peer.async) {
        return {
          async: true,
          unitsPerOp: schemas.length,
          op: async () => {
            let c = 0;
            for (const s of schemas) if (await peer.compileFresh(s)) c++;
            return c;
          },
        };
      }
      return {
        unitsPerOp: schemas.length,
        op: () => {
          let c = 0;
          for (const s of schemas) if (peer.compileFresh(s)) c++;
          return c;
        },
      };
    },
  };
}
