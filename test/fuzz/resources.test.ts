/**
 * Resources: compiled validators are garbage once dropped (measured in a child `node --expose-gc` process),
 * and one compiled validator is safe under interleaved async use.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { compile, InputSchema } from "../../src/index.js";
import { caseArb, type Json } from "./arbitraries.js";
import { BASE_URI } from "./checks.js";

const probe = join(dirname(fileURLToPath(import.meta.url)), "heap-probe.js");
const MB = 1024 * 1024;

function measure(count: number, mode: "drop" | "keep"): { baseline: number; after: number } {
  const out = execFileSync(process.execPath, ["--expose-gc", probe, "--probe", String(count), mode], {
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop() as string) as { baseline: number; after: number };
}

describe("resources", () => {
  test("10,000 compiled-and-dropped validators leave the heap near its baseline", () => {
    const { baseline, after } = measure(10_000, "drop");
    const growth = after - baseline;
    assert.ok(growth < 5 * MB, `heap grew by ${(growth / MB).toFixed(2)} MB after dropping 10,000 validators`);
  });

  test("the probe is sensitive: keeping 2,000 validators shows up as growth", () => {
    const { baseline, after } = measure(2_000, "keep");
    assert.ok(
      after - baseline > 5 * MB,
      `keeping 2,000 validators grew the heap by only ${((after - baseline) / MB).toFixed(2)} MB`,
    );
  });

  test("interleaved async use of one validator gives the sequential verdicts and outputs", async () => {
    const cases = fc.sample(caseArb(3, 6), { seed: 4242, numRuns: 40 });
    for (const c of cases) {
      let validator;
      try {
        validator = compile(c.schema, { baseUri: BASE_URI });
      } catch {
        continue;
      }
      const v = validator;
      const answer = (i: Json): string => {
        try {
          return JSON.stringify([v.isValid(i), v.validate(i, { output: "verbose" }), v.annotations(i)]);
        } catch (e) {
          return `threw ${String(e)}`;
        }
      };
      const sequential = c.instances.map(answer);
      const order = fc.sample(
        fc.array(fc.nat({ max: 3 }), { minLength: c.instances.length * 8, maxLength: c.instances.length * 8 }),
        { seed: 1, numRuns: 1 },
      )[0] as number[];
      const concurrent = await Promise.all(
        order.map(async (delay, n) => {
          const k = n % c.instances.length;
          for (let d = 0; d < delay; d++) await new Promise<void>((resolve) => setImmediate(resolve));
          const first = v.isValid(c.instances[k] as Json);
          await Promise.resolve();
          const rest = answer(c.instances[k] as Json);
          return { k, first, rest };
        }),
      );
      for (const { k, first, rest } of concurrent) {
        assert.equal(
          rest,
          sequential[k],
          `interleaved answer differs for instance ${k} of ${JSON.stringify(c.schema)}`,
        );
        if (!rest.startsWith("threw")) assert.equal(first, JSON.parse(rest)[0]);
      }
    }
  });

  test("interleaved async use of one CompiledInputSchema gives the sequential results", async () => {
    const compiled = InputSchema.validateSchema({
      type: "object",
      properties: {
        q: { type: "string", minLength: 1 },
        n: { type: "integer", maximum: 10 },
        tags: { type: "array", items: { $ref: "#/$defs/tag" } },
      },
      required: ["q"],
      unevaluatedProperties: false,
      $defs: { tag: { type: "string", pattern: "^[a-z]+$" } },
    });
    assert.ok(compiled.ok);
    const inputs: unknown[] = [
      { q: "x" },
      { q: "" },
      { q: "x", n: 11 },
      { q: "x", tags: ["ab", "C"] },
      { q: "x", extra: 1 },
      [],
      { q: "y", n: 3, tags: [] },
    ];
    const sequential = inputs.map((i) => compiled.value.validate(i).ok);
    const concurrent = await Promise.all(
      Array.from({ length: 500 }, async (_, n) => {
        const k = (n * 7) % inputs.length;
        for (let d = 0; d < n % 4; d++) await new Promise<void>((resolve) => setImmediate(resolve));
        return { k, ok: compiled.value.validate(inputs[k]).ok };
      }),
    );
    for (const { k, ok } of concurrent) assert.equal(ok, sequential[k]);
  });
});
