/**
 * Property tests of narrowing and the encoded-optional translation through the public API (issue 31), over
 * generated tool schemas for `openai-strict` with `narrow: true, encode: true` and calls generated near each schema's
 * edges. For every tool admitted with that target:
 * - a call without a null at an encoded property, sent as a strict model must (every absent encoded property
 *   present as null), decoded by the bundle's target view, is the call again, and `Execution.invoke` accepts or
 *   refuses it exactly as the original schema judges the call (and dispatches the decoded arguments);
 * - a null at a property that was nullable before stays a null;
 * - the sent schema accepts the model's shape of a call only if the original accepts the call (always, when nothing
 *   was narrowed), and any call valid for the sent schema decodes to one the original accepts;
 * - the sent schema keeps the profile's own rules (checked again, it fits as it is).
 * Which properties are encoded is read from the checks' `encoded` changes and the original schema, by a walker of the
 * test's own (`encoding.ts`), not by the library's decoder.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  checkTool,
  compile,
  Execution,
  ToolCatalog,
  type AdmittedBundle,
  type TargetRequest,
} from "../../../src/index.js";
import { encodableSchema } from "./arbitraries.js";
import { encodedPointers, encodeShape, stripEncoded } from "./encoding.js";
import { instancesFor, plain, sentSchema } from "./verdicts.js";

const TARGET = { target: "openai-strict", narrow: true, encode: true } as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The schema with every object schema closed (optional properties kept): what is left to narrow is little. */
function closeObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    const mapped =
      key === "properties" || key === "$defs"
        ? Object.fromEntries(
            Object.keys(value as object).map((k) => [k, closeObjects((value as Record<string, unknown>)[k])]),
          )
        : ["items", "anyOf", "allOf"].includes(key)
          ? closeObjects(value)
          : value;
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true });
  }
  if (out["type"] === "object") out["additionalProperties"] = false;
  return out;
}

/** The boundary's verdict (format asserted, as it does by default): arguments must be an object. */
const judge = (schema: unknown) => {
  const validator = compile(schema, { formatAssertion: true });
  return (value: unknown) => isObject(value) && validator.isValid(value);
};

function admit(schema: Record<string, unknown>): { bundle: AdmittedBundle; request: TargetRequest } | undefined {
  const result = ToolCatalog.admitBatch([{ name: "t", revision: "1", inputSchema: schema }], { targets: [TARGET] });
  if (!result.ok) return undefined;
  const request = result.value.forTarget("openai-strict");
  assert.ok(request !== undefined);
  return { bundle: result.value, request };
}

test("property: decoded calls are judged by Execution.invoke exactly as the original schema judges them", async (t) => {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const schemas = fc.oneof(
    encodableSchema,
    encodableSchema.map((s) => closeObjects(s) as Record<string, unknown>),
  );
  const runs = fc
    .tuple(schemas, fc.integer({ min: 0, max: 1_000_000 }))
    .map(([schema, seed]) => ({ schema: plain(schema), seed }));
  await fc.assert(
    fc.asyncProperty(runs, async ({ schema, seed }) => {
      const admitted = admit(schema);
      if (admitted === undefined) return void count("refused");
      const { bundle, request } = admitted;
      const check = request.report.get("t");
      assert.ok(check !== undefined);
      const kinds = new Set(check.changes.map((c) => c.kind));
      assert.ok(!kinds.has("widened"), "nothing widened without widen: true");
      for (const k of kinds) count(`change ${k}`);
      count(check.outcome);
      const encoded = encodedPointers(check);
      const original = judge(schema);
      const sent = sentSchema(request.tools[0]);
      // What is sent keeps the profile's own rules: checked again, it fits as it is.
      assert.equal(checkTool({ name: "t", inputSchema: sent }, "openai-strict").outcome, "fits", JSON.stringify(sent));
      const model = judge(sent);
      const calls = plain(fc.sample(instancesFor(schema), { seed, numRuns: 12 }));
      for (const call of calls) {
        const stripped = stripEncoded(schema, call, encoded);
        const shaped = encodeShape(schema, stripped, encoded);
        const decoded = request.decodeCall({ name: "t", arguments: shaped });
        assert.ok(decoded.ok, JSON.stringify(decoded));
        assert.deepEqual(decoded.value.arguments, stripped, `decoded ${JSON.stringify(shaped)}`);
        let dispatched: unknown;
        const result = await Execution.invoke(bundle, decoded.value, {
          dispatch: (context) => {
            dispatched = context.arguments;
            return "ran";
          },
        });
        const verdict = original(stripped);
        assert.equal(result.ok, verdict, `${JSON.stringify(stripped)} against ${JSON.stringify(schema)}`);
        if (verdict) assert.deepEqual(dispatched, stripped);
        count(verdict ? "call valid" : "call invalid");
        // What the model may send: only shapes of calls the original accepts; all of them when nothing narrowed.
        if (model(shaped)) assert.ok(verdict, `sent accepts ${JSON.stringify(shaped)}: ${JSON.stringify(sent)}`);
        if (!kinds.has("narrowed")) {
          assert.equal(model(shaped), verdict, `${JSON.stringify(shaped)} sent as ${JSON.stringify(sent)}`);
          count(kinds.has("encoded") ? "encoded call judged alike" : "call judged alike");
        }
      }
      // Whatever a strict model sends (a call valid for the sent schema) decodes to a call the original accepts.
      for (const output of plain(fc.sample(instancesFor(sent), { seed: seed + 1, numRuns: 12 }))) {
        if (!model(output)) continue;
        const decoded = request.decodeCall({ name: "t", arguments: output });
        assert.ok(decoded.ok);
        assert.ok(original(decoded.value.arguments), `${JSON.stringify(output)} → ${JSON.stringify(decoded.value)}`);
        count("model output decoded");
      }
    }),
    { seed: 3131, numRuns: 200 },
  );
  for (const [key, n] of [...counts].sort()) t.diagnostic(`${key}: ${n}`);
  for (const key of [
    "translated",
    "change encoded",
    "change narrowed",
    "call valid",
    "call invalid",
    "encoded call judged alike",
  ])
    assert.ok((counts.get(key) ?? 0) >= 20, `${key} exercised too rarely (${counts.get(key) ?? 0})`);
  assert.ok((counts.get("model output decoded") ?? 0) >= 50, "too few model outputs");
});
