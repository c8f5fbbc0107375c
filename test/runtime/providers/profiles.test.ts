/**
 * The profiles as data: dated ids, lookup by id or name, unknown names and malformed profiles as `options_invalid`,
 * a host's own profile from the same parts, and frozen values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  activeRules,
  checkCatalog,
  checkTool,
  defineProfile,
  noBudgets,
  noLimits,
  noStructureRules,
  noValueRules,
  openaiToolName,
  profiles,
  resolveProfile,
  resolveTargets,
  type ProfileSpec,
} from "../../../src/index.js";

test("the built-in profiles are the six of the issue, each dated name@YYYY-MM", () => {
  assert.deepEqual(
    [...profiles.keys()],
    [
      "openai-strict@2026-10",
      "openai@2026-10",
      "anthropic-strict@2026-10",
      "anthropic@2026-10",
      "gemini-parameters@2026-10",
      "gemini-json-schema@2026-10",
    ],
  );
  for (const [id, profile] of profiles) {
    assert.equal(id, `${profile.name}@${profile.version}`);
    assert.match(profile.version, /^\d{4}-\d{2}$/);
    assert.ok(Object.isFrozen(profile));
  }
});

test("a target is an id, a bare name (its newest version) or a profile; anything else is options_invalid", () => {
  assert.equal(resolveProfile("openai-strict@2026-10").ok && resolveProfile("openai-strict").ok, true);
  const byName = resolveProfile("gemini-parameters");
  assert.ok(byName.ok);
  assert.equal(byName.value.id, "gemini-parameters@2026-10");
  for (const bad of ["openai-strict@2024-01", "gpt", ""]) {
    const r = resolveProfile(bad);
    assert.ok(!r.ok);
    assert.equal(r.error.class, "validation");
    assert.equal(r.error.code, "options_invalid");
    assert.match(r.error.message, /unknown provider profile/);
  }
  const unknown = checkTool({ name: "t", inputSchema: { type: "object" } }, "openai-strict@1999-01");
  assert.equal(unknown.outcome, "refused");
  assert.equal(unknown.error?.code, "options_invalid");
  assert.equal(checkCatalog([], "nope").errors[0]?.code, "options_invalid");
});

test("resolveTargets takes a non-empty list without repeats", () => {
  const ok = resolveTargets(["openai-strict", "gemini-parameters@2026-10"]);
  assert.ok(ok.ok);
  assert.deepEqual(
    ok.value.map((p) => p.id),
    ["openai-strict@2026-10", "gemini-parameters@2026-10"],
  );
  for (const bad of [[], "openai", ["openai", "openai@2026-10"], [42], ["nope"]]) {
    const r = resolveTargets(bad);
    assert.equal(r.ok, false, JSON.stringify(bad));
    if (!r.ok) assert.equal(r.error.code, "options_invalid");
  }
});

test("a host builds its own profile from the same parts", () => {
  const spec: ProfileSpec = {
    name: "internal-gateway",
    version: "2026-11",
    provider: "internal",
    format: "openai-function",
    strict: false,
    keywords: new Set(["type", "properties", "required", "items", "description", "enum"]),
    structure: { ...noStructureRules, rootType: true, arrayItems: true },
    values: noValueRules,
    limits: { ...noLimits, maxDepth: 3 },
    budgets: { ...noBudgets, maxTools: 2 },
    toolName: openaiToolName,
  };
  const result = defineProfile(spec);
  assert.ok(result.ok);
  const profile = result.value;
  assert.equal(profile.id, "internal-gateway@2026-11");
  assert.deepEqual(activeRules(profile), [
    "dialect",
    "root-type",
    "keyword-unsupported",
    "array-items",
    "max-depth",
    "tool-name",
    "tool-name-collision",
    "max-tools",
  ]);
  const deep = {
    type: "object",
    properties: { a: { type: "object", properties: { b: { type: "array", items: {} } } } },
  };
  assert.equal(checkTool({ name: "t", inputSchema: deep }, profile).error?.rule, "max-depth");
  assert.equal(checkTool({ name: "t", inputSchema: { type: "object", minProperties: 1 } }, profile).outcome, "refused");
  assert.equal(
    checkCatalog(
      [1, 2, 3].map((i) => ({ name: `t${i}`, inputSchema: { type: "object" } })),
      profile,
    ).errors[0]?.rule,
    "max-tools",
  );
});

test("a built-in spread with changes is a new profile; the original is untouched", () => {
  const base = profiles.get("anthropic-strict@2026-10");
  assert.ok(base !== undefined);
  const result = defineProfile({
    ...base,
    name: "anthropic-strict-lenient",
    budgets: { ...base.budgets, maxStrictTools: 40 },
  });
  assert.ok(result.ok);
  assert.equal(result.value.id, "anthropic-strict-lenient@2026-10");
  assert.equal(result.value.budgets.maxStrictTools, 40);
  assert.equal(base.budgets.maxStrictTools, 20);
});

test("a malformed profile is options_invalid naming the field", () => {
  const base = profiles.get("openai@2026-10") as ProfileSpec;
  const cases: [unknown, RegExp][] = [
    [{ ...base, name: "Has Spaces" }, /"name"/],
    [{ ...base, version: "2026-13" }, /"version"/],
    [{ ...base, format: "mistral" }, /"format"/],
    [{ ...base, keywords: ["type"] }, /"keywords"/],
    [{ ...base, extra: 1 }, /unknown field "extra"/],
    [{ ...base, structure: { ...base.structure, refs: "follow" } }, /"structure".*"refs"/],
    [{ ...base, structure: { ...base.structure, propertyKeys: /^a$/g } }, /"propertyKeys"/],
    [{ ...base, structure: { ...base.structure, propertyKeyScope: "nested" } }, /"propertyKeyScope"/],
    [{ ...base, limits: { maxDepth: -1 } }, /"limits".*"maxDepth"/],
    [{ ...base, toolName: { character: /^a$/, maxLength: 0 } }, /"toolName".*"maxLength"/],
    [null, /must be an object/],
  ];
  for (const [spec, message] of cases) {
    const result = defineProfile(spec as ProfileSpec);
    assert.ok(!result.ok, JSON.stringify(spec));
    assert.equal(result.error.code, "options_invalid");
    assert.match(result.error.message, message);
  }
});

test("check options fail closed", () => {
  const t = { name: "t", inputSchema: { type: "object" } };
  for (const options of [
    { widen: "yes" },
    { wide: true },
    { narrow: 1 },
    { encode: "true" },
    { encoded: true },
    { limits: { maxSchemaDepth: -1 } },
    { limits: { depth: 1 } },
  ]) {
    const check = checkTool(t, "openai", options as never);
    assert.equal(check.error?.code, "options_invalid", JSON.stringify(options));
    assert.equal(checkCatalog([t], "openai", options as never).errors[0]?.code, "options_invalid");
  }
});
