// The required official 2020-12 suite, restricted to the cases every library passes.
import { checkedValidators, ownCopy } from "../prepare.mjs";

/** Keeps the cases that every library compiles and answers correctly on every test; logs which library lost which. */
export async function passingCases(peers, cases, log) {
  const kept = [];
  const lost = new Map(peers.map((p) => [p.name, 0]));
  for (const c of cases) {
    let ok = true;
    for (const p of peers) {
      try {
        await checkedValidators(p, ownCopy([c]));
      } catch {
        lost.set(p.name, lost.get(p.name) + 1);
        ok = false;
      }
    }
    if (ok) kept.push(c);
  }
  const tests = (cs) => cs.reduce((a, c) => a + c.tests.length, 0);
  const perLibrary = [...lost].map(([k, v]) => `${k} ${v}`).join(", ");
  log(
    `suite: kept ${kept.length} of ${cases.length} required cases (${tests(kept)} of ${tests(cases)} instances); ` +
      `cases failed per library: ${perLibrary}`,
  );
  return kept;
}
