/**
 * Every rule of every built-in profile, with a schema it accepts and one it refuses, taken from the public report
 * the rule cites where there is one (the report is named in the case). A rule a profile gains without a case here
 * fails the coverage test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { activeRules, checkCatalog, checkTool, profiles, type ProviderProfile } from "../../../src/index.js";

type Schema = Record<string, unknown>;
interface ToolCase {
  /** What the case is (and the report it comes from). */
  why: string;
  accept: Schema;
  refuse: Schema;
  /** Options of the refusing check (the accepting one uses none). */
  options?: { formatAssertion?: boolean };
}
interface CatalogCase {
  why: string;
  accept: Schema[];
  refuse: Schema[];
}

const strict = (p: ProviderProfile) => p.structure.closedObjects;

/** An object schema that fits the profile's object rules, with `properties` all required where they must be. */
function object(p: ProviderProfile, properties: Schema, extra: Schema = {}): Schema {
  if (!strict(p)) return { type: "object", properties, ...extra };
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false, ...extra };
}

const tool = (inputSchema: Schema, name = "search") => ({ name, description: "a tool", inputSchema });

function withoutType(schema: Schema): Schema {
  const { type: _type, ...rest } = schema;
  return rest;
}

const recursiveNode = (p: ProviderProfile, next: Schema): Schema =>
  object(p, { next }, { $defs: { node: object(p, { next }) } });

const toolCases: Record<string, (p: ProviderProfile) => ToolCase> = {
  dialect: (p) => ({
    why: "draft-07 $schema (anthropics/claude-code#586)",
    accept: object(p, { q: { type: "string" } }, { $schema: "https://json-schema.org/draft/2020-12/schema" }),
    refuse: object(p, { q: { type: "string" } }, { $schema: "http://json-schema.org/draft-07/schema#" }),
  }),
  "ref-local": (p) => ({
    why: "a local reference is checked; a remote one cannot be",
    accept: object(p, { q: { $ref: "#/$defs/s" } }, { $defs: { s: { type: "string" } } }),
    refuse: object(p, { q: { $ref: "https://example.com/s.json" } }),
  }),
  "ref-siblings": (p) => ({
    why: "$ref cannot have keywords {'description'} (camel-ai/camel#3001): inlined when not recursive",
    accept: object(p, { q: { $ref: "#/$defs/s", description: "the query" } }, { $defs: { s: { type: "string" } } }),
    refuse:
      p.structure.recursion === "optional-properties"
        ? { type: "object", properties: { next: { $ref: "#", type: "object" } } }
        : recursiveNode(p, { anyOf: [{ $ref: "#/$defs/node", type: "object" }, { type: "null" }] }),
  }),
  "ref-in-allof": (p) => ({
    why: "no allOf with $ref (Anthropic strict): a non-recursive one is inlined",
    accept: object(p, { q: { allOf: [{ $ref: "#/$defs/s" }] } }, { $defs: { s: { type: "string" } } }),
    refuse: object(
      p,
      { q: { type: "string" } },
      {
        $defs: { node: object(p, { kids: { type: "array", items: { allOf: [{ $ref: "#/$defs/node" }] } } }) },
        properties: { tree: { $ref: "#/$defs/node" } },
        required: strict(p) ? ["tree"] : [],
      },
    ),
  }),
  recursion: (p) =>
    p.structure.recursion === "optional-properties"
      ? {
          why: "cyclic references only within non-required properties (Gemini parametersJsonSchema docstring)",
          accept: { type: "object", properties: { next: { $ref: "#" } } },
          refuse: { type: "object", properties: { list: { type: "array", items: { $ref: "#" } } } },
        }
      : {
          why: "a recursive tree (livemcp-mcp-server-chart generate_treemap_chart)",
          accept: object(p, { q: { $ref: "#/$defs/s" } }, { $defs: { s: { type: "string" } } }),
          refuse: object(
            p,
            { tree: { $ref: "#/$defs/node" } },
            {
              $defs: { node: object(p, { children: { type: "array", items: { $ref: "#/$defs/node" } } }) },
            },
          ),
        },
  "boolean-schema": (p) => ({
    why: "true is {} exactly; false has no object spelling",
    accept: object(p, { q: true }),
    refuse: object(p, { q: false }),
  }),
  "root-type": (p) => ({
    why: `schema must be a JSON Schema of 'type: "object"' (OpenAI); a missing root type is added`,
    accept: withoutType(object(p, { q: { type: "string" } })),
    refuse: { type: ["object", "null"], properties: {} },
  }),
  "root-combinator": (p) => ({
    why: "oneOf/anyOf/allOf at the top level (nspady/google-calendar-mcp#39, anthropics/claude-code#5319)",
    accept: { allOf: [object(p, { q: { type: "string" } })] },
    refuse: {
      ...object(p, { a: { type: "string" }, b: { type: "string" } }),
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    },
  }),
  "keyword-unsupported": (p) => {
    switch (p.name) {
      case "openai-strict":
        return {
          why: "'uniqueItems' is not permitted (1jehuang/jcode#687)",
          accept: object(p, { ids: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 10 } }),
          refuse: object(p, { ids: { type: "array", items: { type: "string" }, uniqueItems: true } }),
        };
      case "anthropic-strict":
        return {
          why: "For 'integer' type, property 'minimum' is not supported (agentjido/req_llm#302)",
          accept: object(p, { n: { type: "integer" } }),
          refuse: object(p, { n: { type: "integer", minimum: 1 } }),
        };
      case "gemini-parameters":
        return {
          why: 'Unknown name "additionalProperties" (promptfoo/promptfoo#6902)',
          accept: object(p, { q: { type: "string", minLength: 1 } }),
          refuse: object(p, { meta: { type: "object", additionalProperties: { type: "string" } } }),
        };
      default:
        return {
          why: "pattern is not in the parametersJsonSchema list",
          accept: object(p, { q: { type: "string" } }),
          refuse: object(p, { q: { type: "string", pattern: "^[a-z]+$" } }),
        };
    }
  },
  "type-array": (p) =>
    p.values.typeArrays === "none"
      ? {
          why: "Proto field is not repeating, cannot start list (n8n-io/n8n#15553): [T, null] becomes nullable",
          accept: object(p, { q: { type: ["string", "null"] } }),
          refuse: object(p, { q: { type: ["string", "null"], enum: ["a", null] } }),
        }
      : {
          why: "[T, null] is documented; other type arrays are split into anyOf where that is exact",
          accept: object(p, { q: { type: ["string", "null"] } }),
          refuse: object(p, { q: { type: ["string", "number"], anyOf: [{ minLength: 1 }, { minimum: 0 }] } }),
        },
  "type-null": (p) => ({
    why: "no null type: an anyOf null branch becomes nullable",
    accept: object(p, { q: { anyOf: [{ type: "string" }, { type: "null" }], default: null } }),
    refuse: object(p, { q: { type: "null" } }),
  }),
  "anyof-alone": (p) => ({
    why: "When using any_of, it must be the only field set (Vertex): siblings go into the branches",
    accept: object(p, { q: { anyOf: [{ type: "string" }, { type: "number" }], description: "a value" } }),
    refuse: object(p, { q: { type: "string", anyOf: [{ type: "number" }, { minLength: 1 }] } }),
  }),
  "closed-objects": (p) => ({
    why: "'additionalProperties' is required to be supplied and to be false (ravitemer/mcphub.nvim#124)",
    accept: object(p, { tool_input: object(p, { a: { type: "string" } }) }),
    refuse: object(p, { tool_input: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } }),
  }),
  "required-all": (p) => ({
    why: "'required' … including every key in properties. Missing 'folderId' (vercel/ai#7888)",
    accept: object(p, { name: { type: "string" }, folderId: { type: "string" } }),
    refuse: { ...object(p, { name: { type: "string" }, folderId: { type: "string" } }), required: ["name"] },
  }),
  "array-items": (p) => ({
    why: "array schema missing items (mark3labs/mcphost#35; hubspot-search-objects)",
    accept: object(p, { tags: { type: "array", items: { type: "string" } } }),
    refuse: object(p, { tags: { type: "array" } }),
  }),
  format: (p) => ({
    why: "format: only 'enum' and 'date-time' are supported for STRING type (google-gemini/gemini-cli#2237)",
    accept: object(p, { at: { type: "string", format: "date-time" }, link: { type: "string", format: "x-custom" } }),
    refuse: object(p, { link: { type: "string", format: "x-custom" } }),
    options: { formatAssertion: true },
  }),
  "enum-values": (p) => {
    switch (p.values.enumValues) {
      case "string":
        return {
          why: "Invalid value at '…enum[0]' (TYPE_STRING), 2 (rikkahub#477)",
          accept: object(p, { unit: { type: "string", enum: ["c", "f"] } }),
          refuse: object(p, { level: { type: "integer", enum: [1, 2] } }),
        };
      case "string-number":
        return {
          why: "enum (for strings and numbers)",
          accept: object(p, { level: { enum: ["low", 2] } }),
          refuse: object(p, { flag: { enum: [true, false] } }),
        };
      default:
        return {
          why: "enum of primitives",
          accept: object(p, { level: { enum: ["low", 2, null] } }),
          refuse: object(p, { shape: { enum: [{ kind: "circle" }] } }),
        };
    }
  },
  "min-items": (p) => ({
    why: "'minItems' values other than 0 or 1 are not supported (memorize-everything#93)",
    accept: object(p, { ids: { type: "array", items: { type: "string" }, minItems: 1 } }),
    refuse: object(p, { ids: { type: "array", items: { type: "string" }, minItems: 2 } }),
  }),
  "pattern-syntax": (p) => ({
    why: "regex lookaround is not supported. Found at $.properties.fileKey.pattern (anomalyco/opencode#32073)",
    accept: object(p, { fileKey: { type: "string", pattern: "^[a-zA-Z0-9]{22,128}$" } }),
    refuse: object(p, { fileKey: { type: "string", pattern: "^(?!.*\\.\\.)[a-zA-Z0-9.]+$" } }),
  }),
  "property-key": (p) => ({
    why: "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$' (beautyfree/appstore-connect-mcp#2)",
    accept: object(p, { filter_id: { type: "string" } }),
    refuse: object(p, { "filter[id]": { type: "string" } }),
  }),
  "max-properties": (p) => {
    const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string" }]));
    return { why: "5000 object properties in total", accept: object(p, props(5000)), refuse: object(p, props(5001)) };
  },
  "max-depth": (p) => {
    const nested = (levels: number): Schema =>
      levels === 1 ? object(p, { leaf: { type: "string" } }) : object(p, { child: nested(levels - 1) });
    // `nested(n)` has n object levels and a leaf below the last: n + 1 levels of subschemas.
    return { why: "10 levels of nesting, every subschema a level", accept: nested(9), refuse: nested(10) };
  },
  "max-enum-values": (p) => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => i);
    return {
      why: "1000 enum values in total",
      accept: object(p, { a: { enum: values(500) }, b: { enum: values(500) } }),
      refuse: object(p, { a: { enum: values(500) }, b: { enum: values(501) } }),
    };
  },
  "max-string-budget": (p) => {
    const names = (n: number, width: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`p${String(i).padStart(width - 1, "0")}`, { type: "string" }]),
      );
    return {
      why: "120,000 characters of property names, definition names and values",
      accept: object(p, names(4000, 30)),
      refuse: object(p, names(4000, 31)),
    };
  },
  "large-enum": (p) => {
    const values = (n: number, width: number) => Array.from({ length: n }, (_, i) => String(i).padStart(width, "x"));
    return {
      why: "a string enum of more than 250 values within 15,000 characters",
      accept: object(p, { code: { type: "string", enum: values(251, 59) } }),
      refuse: object(p, { code: { type: "string", enum: values(251, 60) } }),
    };
  },
};

/** Rules whose subject is the tool name or the whole request: checked with `checkCatalog`. */
const catalogCases: Record<string, (p: ProviderProfile) => CatalogCase> = {
  "tool-name": (p) => ({
    why: "string does not match pattern '^[a-zA-Z0-9_-]+$' (5ire#403): renamed; an empty name cannot be",
    accept: [tool(object(p, {}), "github.create_issue"), tool(object(p, {}), "x".repeat(200))],
    refuse: [tool(object(p, {}), "")],
  }),
  "tool-name-collision": (p) => {
    // Gemini takes dots but not a leading digit; OpenAI and Anthropic take digits but not dots.
    const [a, b] = p.toolName.first === undefined ? ["fs.read", "fs_read"] : ["1read", "_1read"];
    return {
      why: "two MCP names with one provider name",
      accept: [tool(object(p, {}), a), tool(object(p, {}), "fs_write")],
      refuse: [tool(object(p, {}), a), tool(object(p, {}), b)],
    };
  },
  "max-tools": (p) => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => tool(object(p, {}), `t${i}`));
    return {
      why: "Expected an array with maximum length 128 (zed-industries/zed#32946)",
      accept: tools(128),
      refuse: tools(129),
    };
  },
  "max-strict-tools": (p) => {
    const tools = (n: number) => Array.from({ length: n }, (_, i) => tool(object(p, {}), `t${i}`));
    return { why: "Too many strict tools (camel-ai/camel#4171)", accept: tools(20), refuse: tools(21) };
  },
  "max-optional-parameters": (p) => {
    const optional = (n: number) => ({
      ...object(p, Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, { type: "string" }]))),
      required: [],
    });
    return {
      why: "Schemas contains too many optional parameters (87) … (limit: 24) (elie222/inbox-zero#2323)",
      accept: [tool(optional(12), "a"), tool(optional(12), "b")],
      refuse: [tool(optional(12), "a"), tool(optional(13), "b")],
    };
  },
  "max-union-parameters": (p) => {
    const unions = (n: number) =>
      object(p, Object.fromEntries(Array.from({ length: n }, (_, i) => [`u${i}`, { type: ["string", "null"] }])));
    return {
      why: "16 parameters using anyOf or type arrays (mozilla/bugbug#6129)",
      accept: [tool(unions(8), "a"), tool(unions(8), "b")],
      refuse: [tool(unions(8), "a"), tool(unions(9), "b")],
    };
  },
};

for (const profile of profiles.values()) {
  for (const rule of activeRules(profile)) {
    const toolCase = toolCases[rule];
    const catalogCase = catalogCases[rule];
    test(`${profile.id} ${rule}: has a case`, () => assert.ok(toolCase ?? catalogCase, `no case for ${rule}`));
    if (toolCase !== undefined) {
      const c = toolCase(profile);
      test(`${profile.id} ${rule}: accepts and refuses (${c.why})`, () => {
        const accepted = checkTool(tool(c.accept), profile);
        assert.notEqual(accepted.outcome, "refused", JSON.stringify(accepted.problems));
        assert.ok(accepted.tool !== undefined);
        const refused = checkTool(tool(c.refuse), profile, c.options);
        assert.equal(refused.outcome, "refused");
        const problem = refused.problems.find((e) => e.rule === rule);
        assert.ok(problem, `expected ${rule}, got ${JSON.stringify(refused.problems)}`);
        assert.equal(problem.class, "unsupported_capability");
        assert.equal(problem.code, "provider_unsupported");
        assert.equal(problem.profile, profile.id);
        assert.equal(typeof problem.schemaPointer, "string");
        assert.equal(refused.tool, undefined);
      });
    }
    if (catalogCase !== undefined) {
      const c = catalogCase(profile);
      test(`${profile.id} ${rule}: accepts and refuses a catalog (${c.why})`, () => {
        const accepted = checkCatalog(c.accept, profile);
        assert.deepEqual(accepted.errors, []);
        assert.equal(accepted.tools.length, c.accept.length);
        assert.ok([...accepted.report.values()].every((r) => r.outcome !== "refused"));
        const refused = checkCatalog(c.refuse, profile);
        const problems = [...refused.errors, ...[...refused.report.values()].flatMap((r) => r.problems)];
        assert.ok(
          problems.some((e) => e.rule === rule),
          `expected ${rule}, got ${JSON.stringify(problems)}`,
        );
      });
    }
  }
}

test("every case is used by some profile (no case outlives its rule)", () => {
  const used = new Set([...profiles.values()].flatMap((p) => activeRules(p)));
  for (const rule of [...Object.keys(toolCases), ...Object.keys(catalogCases)]) assert.ok(used.has(rule), rule);
});

test("the errors name the keyword and the JSON Pointer of the reported construct", () => {
  const openaiStrict = profiles.get("openai-strict@2026-10") as ProviderProfile;
  const schema = object(openaiStrict, { ids: { type: "array", items: { type: "string" }, uniqueItems: true } });
  const { error } = checkTool(tool(schema), openaiStrict);
  assert.equal(error?.keyword, "uniqueItems");
  assert.equal(error?.schemaPointer, "/properties/ids/uniqueItems");
  assert.equal(error?.field, "inputSchema");
  assert.match(error?.message ?? "", /uniqueItems/);
});
