// The micro shapes: the smallest schemas a tool declares, one workload each with one valid instance, so that a fixed
// cost per call or per declared property shows on its own row. Every library validates its own JSON.parse'd copy of
// the instance (prepare.mjs ownCopy), as a tool's arguments arrive.

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

/** `n` declared string properties p0…p(n-1), all required, and an instance that gives each one. */
function requiredStrings(n) {
  const names = range(n, (i) => `p${i}`);
  return {
    schema: {
      type: "object",
      properties: Object.fromEntries(names.map((p) => [p, { type: "string" }])),
      required: names,
    },
    data: Object.fromEntries(names.map((p) => [p, `v-${p}`])),
  };
}

/** An `n`-level chain of distinct objects: level N is { type: "object", properties: { pN: <next> }, required: ["pN"] }. */
function chain(n) {
  let schema = { type: "string" };
  let data = "x";
  for (let i = n - 1; i >= 0; i--) {
    schema = { type: "object", properties: { [`p${i}`]: schema }, required: [`p${i}`] };
    data = { [`p${i}`]: data };
  }
  return { schema, data };
}

const shape = (name, description, { schema, data }, declaredProperties) => ({
  name,
  description,
  ...(declaredProperties ? { declaredProperties } : {}),
  cases: [{ id: name, schema, tests: [{ data, valid: true }] }],
});

/**
 * [{ name, description, cases, declaredProperties? }]: where `declaredProperties` is given, the report also shows the
 * time per declared property.
 */
export function shapes() {
  const onePropertySchema = { type: "object", properties: { a: { type: "string" } } };
  return [
    shape("shape-string", '{ type: "string" } on "x"', { schema: { type: "string" }, data: "x" }),
    shape("shape-required", '{ type: "object", required: ["a"] } on { a: "x" }', {
      schema: { type: "object", required: ["a"] },
      data: { a: "x" },
    }),
    shape("shape-property", '{ type: "object", properties: { a: { type: "string" } } } on { a: "x" }', {
      schema: onePropertySchema,
      data: { a: "x" },
    }),
    shape("shape-property-required", 'the same plus required: ["a"], on { a: "x" }', {
      schema: { ...onePropertySchema, required: ["a"] },
      data: { a: "x" },
    }),
    shape("shape-3-optional", "three properties (string, integer, boolean), none required; all three given", {
      schema: {
        type: "object",
        properties: { s: { type: "string" }, i: { type: "integer" }, b: { type: "boolean" } },
      },
      data: { s: "x", i: 1, b: true },
    }),
    shape(
      "shape-closed-mcp",
      "a closed MCP tool object as zod writes it (owner, repo: string; issue_number: number, all required; state: " +
        "an optional enum; additionalProperties: false), on { owner, repo, issue_number }",
      {
        schema: {
          type: "object",
          properties: {
            owner: { type: "string", description: "Repository owner" },
            repo: { type: "string", description: "Repository name" },
            issue_number: { type: "number", description: "The issue's number" },
            state: { type: "string", enum: ["open", "closed"] },
          },
          required: ["owner", "repo", "issue_number"],
          additionalProperties: false,
        },
        data: { owner: "octocat", repo: "hello-world", issue_number: 42 },
      },
    ),
    shape("shape-5-required", "five required string properties, all given", requiredStrings(5), 5),
    shape("shape-50-required", "fifty required string properties, all given", requiredStrings(50), 50),
    shape("shape-400-required", "400 required string properties, all given", requiredStrings(400), 400),
    shape(
      "shape-chain-50",
      'a 50-level chain of distinct objects, each { type: "object", properties: { pN: <next> }, required: ["pN"] } ' +
        "(the last pN a string), on the matching 50-deep instance",
      chain(50),
    ),
  ];
}
