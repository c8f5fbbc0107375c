/**
 * Differential test against @hyperjump/json-schema (draft 2020-12) on generated schemas and edge-biased
 * instances. Every disagreement must be explained by a documented class in known-differences.md (the
 * KNOWN_DIFFERENCES predicates); anything else fails with the case.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { caseArb } from "../fuzz/arbitraries.js";
import {
  exactMultiple,
  explain,
  hyperjumpMultiple,
  hyperjumpVerdicts,
  KNOWN_DIFFERENCES,
  ourVerdicts,
} from "./hyperjump.js";

const RUNS = 600;

describe("differential: @hyperjump/json-schema", () => {
  test("our verdicts equal hyperjump's on generated cases, up to documented differences", async () => {
    const explained = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(caseArb(), async (c) => {
        const theirs = await hyperjumpVerdicts(c.schema, c.instances);
        const ours = ourVerdicts(c.schema, c.instances, theirs.uri);
        assert.equal(
          ours.error,
          undefined,
          `we refused a valid generated schema: ${ours.error}\nschema: ${JSON.stringify(c.schema)}`,
        );
        assert.equal(
          theirs.error,
          undefined,
          `hyperjump refused a valid generated schema: ${theirs.error}\nschema: ${JSON.stringify(c.schema)}`,
        );
        c.instances.forEach((instance, k) => {
          const o = ours.verdicts[k];
          const t = theirs.verdicts[k];
          if (o === "limit" || t === undefined || o === t) return;
          const known = explain(c.schema, instance, o, t);
          if (known !== undefined) {
            explained.set(known.id, (explained.get(known.id) ?? 0) + 1);
            return;
          }
          assert.fail(
            `we say ${o}, hyperjump says ${t}\nschema: ${JSON.stringify(c.schema)}\ninstance: ${JSON.stringify(instance)}`,
          );
        });
      }),
      { seed: 20260201, numRuns: RUNS, includeErrorInReport: true },
    );
    for (const id of explained.keys()) assert.ok(KNOWN_DIFFERENCES.some((d) => d.id === id));
  });

  test("documented difference: multipleOf is exact here, tolerant in hyperjump", async () => {
    const schema = { multipleOf: 0.0001 };
    const instance = 1.00000001;
    const theirs = await hyperjumpVerdicts(schema, [instance]);
    const ours = ourVerdicts(schema, [instance], theirs.uri);
    assert.deepEqual(ours.verdicts, [false]);
    assert.deepEqual(theirs.verdicts, [true]);
    assert.equal(explain(schema, instance, false, true)?.id, "hyperjump-multipleOf-tolerance");
  });

  test("the multipleOf predicate decides exactly", () => {
    assert.equal(exactMultiple(0.3, 0.1), true);
    assert.equal(exactMultiple(0.30000000000000004, 0.1), false);
    assert.equal(exactMultiple(1e308, 0.5), true);
    assert.equal(exactMultiple(7.5, 1.5), true);
    assert.equal(exactMultiple(-3, 1.5), true);
    assert.equal(exactMultiple(1e-8, 1e-9), true);
    assert.equal(exactMultiple(1.5e-9, 1e-9), false);
    assert.equal(hyperjumpMultiple(1e-8, 1), true);
  });
});
