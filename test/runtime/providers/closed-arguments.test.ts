/**
 * Closed arguments (issue 46): which objects `closeArguments` closes and which it leaves open, and why — the
 * providers' narrowing's polarity (`not`, `if`, `oneOf`, a bounded `contains`, a definition reached from there) and
 * the places where `additionalProperties: false` would refuse a property declared beside it — then `closedArguments`
 * through admission and `Execution.invoke`, and the 400-tool corpus admitted with it on (the counts printed).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Execution, ToolCatalog, compile } from "../../../src/index.js";
import { closeArguments } from "../../../src/runtime/providers/closed-arguments.js";
import { repoRoot } from "../../suite/locate.js";

type Schema = Record<string, unknown>;
const object = (properties: Schema, more: Schema = {}) => ({ type: "object", properties, ...more });
const str = { type: "string" };

/** The report as `closed` pointers and `open` pointers with the start of their reason. */
function report(schema: Schema) {
  const { report } = closeArguments(schema);
  return { closed: report.closed, open: report.open.map((o) => `${o.pointer} ${o.reason}`) };
}

describe("closeArguments: where closing is a narrowing that refuses nothing declared", () => {
  test("the root and nested objects that declare properties are closed; the closed schema refuses only extras", () => {
    const schema = object({ q: str, opts: object({ depth: { type: "integer" } }) }, { required: ["q"] });
    const closed = closeArguments(schema);
    assert.deepEqual(closed.report, { closed: ["", "/properties/opts"], open: [] });
    const v = compile(closed.schema);
    assert.equal(v.isValid({ q: "a", opts: { depth: 1 } }), true);
    assert.equal(v.isValid({ q: "a", x: 1 }), false);
    assert.equal(v.isValid({ q: "a", opts: { depth: 1, leak: true } }), false);
    assert.ok(!Object.hasOwn(schema, "additionalProperties"), "the published schema is not touched");
  });

  test("an object already closed is left as it is; a map and a free-form object below the root stay open", () => {
    const schema = object(
      { env: { type: "object", additionalProperties: str }, data: { type: "object" }, done: object({}, {}) },
      { additionalProperties: false },
    );
    const r = report(schema);
    assert.deepEqual(r.closed, []);
    assert.deepEqual(r.open, [
      "/properties/env kept open: its additionalProperties schema declares every other name (a map)",
      "/properties/data kept open: it declares no property (a free-form object)",
      "/properties/done kept open: it declares no property (a free-form object)",
    ]);
  });

  test("a root that declares nothing is closed: the tool takes {} only", () => {
    assert.deepEqual(report({ type: "object" }).closed, [""]);
  });

  test("under not, if, oneOf and a bounded contains closing is no narrowing: kept open, and said so", () => {
    const why = "kept open: it sits under not, if, oneOf or a bounded contains (closing it would not be a narrowing)";
    const cases: [Schema, string[]][] = [
      [{ type: "object", not: object({ b: str }) }, ["/not"]],
      [{ type: "object", if: object({ a: { const: "x" } }), then: { required: ["a"] } }, ["/if"]],
      [{ oneOf: [object({ c: str }), object({ d: str })] }, ["/oneOf/0", "/oneOf/1"]],
      [
        object({ list: { type: "array", contains: object({ k: str }), maxContains: 2 } }),
        ["/properties/list/contains"],
      ],
    ];
    for (const [schema, pointers] of cases) {
      const r = report(schema);
      for (const p of pointers) assert.ok(r.open.includes(`${p} ${why}`), `${p} in ${JSON.stringify(r.open)}`);
    }
    // An unbounded contains is positive: closing its object is a narrowing.
    assert.deepEqual(report(object({ list: { type: "array", contains: object({ k: str }) } })).closed, [
      "",
      "/properties/list/contains",
    ]);
  });

  test("an in-place keyword beside declarations keeps its branches open whatever their polarity", () => {
    const schema = object({ a: str }, { not: object({ b: str }), oneOf: [object({ c: str }), object({ d: str })] });
    const r = report(schema);
    assert.deepEqual(r.closed, []);
    assert.match(r.open.join("\n"), /^ kept open: the oneOf beside it declares properties/m);
    assert.match(r.open.join("\n"), /^\/not kept open: it applies in place \(not\) beside properties/m);
  });

  test("a definition a reference reaches from under not stays open; one reached only positively is closed", () => {
    const schema = object(
      { p: { $ref: "#/$defs/P" } },
      { not: { $ref: "#/$defs/N" }, $defs: { P: object({ x: str }), N: object({ y: str }) } },
    );
    const r = report(schema);
    assert.ok(r.closed.includes("/$defs/P"));
    assert.ok(r.open.some((line) => line.startsWith("/$defs/N kept open")));
  });

  test("allOf, a $ref or an anyOf beside declarations: neither the object nor its branch is closed", () => {
    const allOf = report(object({ x: str }, { allOf: [object({ y: str })] }));
    assert.deepEqual(allOf.closed, []);
    assert.match(allOf.open.join("\n"), /^ kept open: the allOf beside it declares properties/m);
    assert.match(allOf.open.join("\n"), /^\/allOf\/0 kept open: it applies in place \(allOf\)/m);
    const ref = report(object({ x: str }, { $ref: "#/$defs/B", $defs: { B: object({ y: str }) } }));
    assert.deepEqual(ref.closed, []);
    assert.match(ref.open.join("\n"), /^\/\$defs\/B kept open: the \$ref at {2}has keywords beside it/m);
    const anyOf = report(object({ x: str }, { anyOf: [object({ y: str }), object({ z: str })] }));
    assert.deepEqual(anyOf.closed, []);
  });

  test("an anyOf of alternatives alone (a nullable reference) closes each alternative", () => {
    const schema = object(
      { f: { anyOf: [{ $ref: "#/$defs/F" }, { type: "null" }] } },
      { $defs: { F: object({ n: { type: "number" } }) } },
    );
    assert.deepEqual(report(schema).closed, ["", "/$defs/F"]);
  });

  test("a schema with an $id below its root or a $ref to another document is left open everywhere", () => {
    for (const schema of [
      object({ a: object({ b: str }, { $id: "https://example.com/a" }) }),
      object({ a: { $ref: "https://example.com/a.json" } }),
    ]) {
      const r = report(schema);
      assert.deepEqual(r.closed, []);
      assert.match(r.open[0] ?? "", /^ kept open: an \$id below the root or a \$ref to another document/);
    }
  });

  test("required naming an undeclared property: closing would refuse every call, so it stays open", () => {
    const r = report(object({ a: str }, { required: ["a", "b"] }));
    assert.deepEqual(r.open, [" kept open: its required names a property it does not declare"]);
  });

  test("a schema past the walk's bounds is not closed, and says so", () => {
    let deep: Schema = object({ leaf: str });
    for (let i = 0; i < 40; i++) deep = object({ n: deep });
    const { schema, report: r } = closeArguments(deep, { maxSchemaDepth: 10 });
    assert.equal(schema, undefined);
    assert.deepEqual(r.closed, []);
    assert.match(r.open[0]?.reason ?? "", /^not closed: limit maxSchemaDepth \(10\) exceeded/);
  });
});

describe("closedArguments through admission and Execution.invoke", () => {
  const tools = [
    {
      name: "read",
      revision: "1",
      inputSchema: object({ path: str, opts: object({ depth: { type: "integer" } }), extra: { type: "object" } }),
    },
  ];
  const host = { dispatch: () => ({ content: [{ type: "text", text: "done" }] }) };

  test("off by default: an undeclared property reaches dispatch, as the published schema allows", async () => {
    const bundle = ToolCatalog.admitBatch(tools);
    assert.ok(bundle.ok);
    assert.equal(bundle.value.registry.get("read")?.closedArguments, undefined);
    const r = await Execution.invoke(bundle.value, { name: "read", arguments: { path: "a", exfil: "x" } }, host);
    assert.ok(r.ok);
  });

  test("on: undeclared properties are refused before any stage, named in the model text; declared ones pass", async () => {
    const bundle = ToolCatalog.admitBatch(tools, { closedArguments: true });
    assert.ok(bundle.ok);
    const closed = bundle.value.registry.get("read")?.closedArguments;
    assert.deepEqual(closed?.closed, ["", "/properties/opts"]);
    assert.deepEqual(closed?.open, [
      { pointer: "/properties/extra", reason: "kept open: it declares no property (a free-form object)" },
    ]);
    let dispatched = 0;
    const counting = { dispatch: () => (dispatched++, { content: [] }) };
    const call = (args: unknown) => Execution.invoke(bundle.value, { name: "read", arguments: args }, counting);
    for (const args of [{ path: "a" }, { path: "a", opts: { depth: 2 } }, { path: "a", extra: { any: 1 } }, undefined])
      assert.ok((await call(args)).ok, JSON.stringify(args));
    assert.equal(dispatched, 4);
    const refused = await call({ path: "a", exfil: "~/.ssh/id_rsa", opts: { depth: 1, "\u202eleak": true } });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, "arguments_undeclared");
    assert.equal(refused.error.stage, "arguments");
    assert.match(refused.error.modelText, /closed arguments/);
    assert.match(refused.error.modelText, /must not have property "exfil"/);
    assert.match(refused.error.modelText, /\/opts: must not have property "\\u202eleak"/i);
    assert.ok(!refused.error.modelText.includes("id_rsa"), "no value is quoted");
    assert.equal(dispatched, 4, "never dispatched");
    const invalid = await call({ path: 1, exfil: "x" });
    assert.ok(!invalid.ok);
    assert.equal(invalid.error.code, "arguments_invalid", "the published schema's refusal comes first");
  });

  test("the option is checked fail closed", () => {
    const bad = ToolCatalog.admitBatch(tools, { closedArguments: "yes" as unknown as boolean });
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, "options_invalid");
    assert.match(bad.error.message, /closedArguments/);
  });
});

describe("the 400-tool corpus with closedArguments on", () => {
  const path = resolve(repoRoot, "..", "shared", "mcp-corpus", "mcp-tools.json");

  test("every tool admitted without it is admitted with it; the objects closed and left open are counted", () => {
    assert.ok(existsSync(path), `the MCP corpus is missing: ${path}`);
    const corpus = JSON.parse(readFileSync(path, "utf8")) as Schema[];
    const tools = corpus.map((t, i) => ({ ...t, name: `t${i}`, revision: "1" }));
    const options = { mode: "isolate", draft07: "upgrade" } as const;
    const without = ToolCatalog.admitBatch(tools, options);
    const withIt = ToolCatalog.admitBatch(tools, { ...options, closedArguments: true });
    assert.ok(without.ok && withIt.ok);
    assert.deepEqual(withIt.value.accepted, without.value.accepted);
    let closed = 0;
    let toolsClosed = 0;
    let asPublished = 0;
    const open = new Map<string, number>();
    for (const tool of withIt.value.registry.values()) {
      const c = tool.closedArguments;
      assert.ok(c !== undefined, tool.name);
      closed += c.closed.length;
      if (c.closed.length > 0) toolsClosed++;
      if (c.closed.length === 0 && c.open.length === 0) asPublished++;
      for (const o of c.open) open.set(o.reason, (open.get(o.reason) ?? 0) + 1);
    }
    const admitted = withIt.value.accepted.length;
    const counts = { admitted, toolsClosed, asPublished, closed, open: Object.fromEntries(open) };
    console.log(`corpus closed arguments: ${JSON.stringify(counts)}`);
    // read_pdf's draft-04 `exclusiveMinimum: true` is invalid under 2020-12: refused with or without the option.
    assert.equal(admitted, 399);
    assert.deepEqual(
      withIt.value.rejected.map((r) => r.error.code),
      ["schema_invalid"],
    );
    assert.equal(closed, 315);
    assert.equal(
      [...open.values()].reduce((a, b) => a + b, 0),
      77,
    );
  });
});
