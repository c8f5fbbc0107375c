// unevaluated and the keyword micro-workloads: schemas and instances built here, with their expected verdicts.

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));

function unevaluatedCases() {
  const props = (from, to, type = "string") => Object.fromEntries(range(to - from, (i) => [`p${from + i}`, { type }]));
  const objSchema = {
    type: "object",
    allOf: [{ properties: props(0, 4) }, { properties: props(4, 8, "integer") }],
    anyOf: [
      { properties: props(8, 12), required: ["p8"] },
      { properties: { p8: { type: "integer" } }, required: ["p8"] },
    ],
    oneOf: [
      { properties: props(12, 16, "boolean"), required: ["p12"] },
      { properties: { p12: { type: "null" } }, required: ["p12"] },
    ],
    if: { properties: { p0: { const: "a" } }, required: ["p0"] },
    then: { properties: props(16, 20, "number") },
    else: { properties: props(16, 20, "string") },
    unevaluatedProperties: false,
  };
  const value = (i) => (i < 4 ? (i === 0 ? "a" : "s") : i < 8 ? i : i < 12 ? "s" : i < 16 ? true : 1.5);
  const good = Object.fromEntries(range(20, (i) => [`p${i}`, value(i)]));
  const arrSchema = {
    type: "array",
    allOf: [{ prefixItems: range(10, () => ({ type: "integer" })) }],
    anyOf: [
      { prefixItems: range(12, (i) => (i < 10 ? true : { type: "string" })) },
      { prefixItems: [{ type: "boolean" }] },
    ],
    if: { prefixItems: [{ const: 0 }] },
    then: { prefixItems: range(50, () => ({ type: ["string", "number"] })) },
    else: { prefixItems: range(50, () => ({ type: "boolean" })) },
    unevaluatedItems: false,
  };
  const goodArr = range(50, (i) => (i < 10 ? i : i < 12 ? "s" : i % 2 ? i : "x"));
  const nested = {
    type: "object",
    properties: { a: { type: "array", prefixItems: [{ type: "integer" }], unevaluatedItems: false }, o: objSchema },
    unevaluatedProperties: false,
  };
  return [
    {
      id: "object",
      schema: objSchema,
      tests: [
        { data: good, valid: true },
        { data: { ...good, extra: 1 }, valid: false },
        { data: { ...good, p19: "x" }, valid: false },
        { data: { ...good, p0: "b", p16: "s", p17: "s", p18: "s", p19: "s" }, valid: true },
      ],
    },
    {
      id: "array",
      schema: arrSchema,
      tests: [
        { data: goodArr, valid: true },
        { data: [...goodArr.slice(0, 49), null], valid: false },
        { data: [1, ...goodArr.slice(1)], valid: false },
      ],
    },
    {
      id: "nested",
      schema: nested,
      tests: [
        { data: { a: [1], o: good }, valid: true },
        { data: { a: [1, 2], o: good }, valid: false },
        { data: { a: [1], o: good, z: 0 }, valid: false },
      ],
    },
  ];
}

export const unevaluated = () => ({
  name: "unevaluated",
  description:
    "allOf/anyOf/oneOf/if-then-else with unevaluatedProperties/unevaluatedItems: false " +
    "over 20-property objects and 50-item arrays",
  cases: unevaluatedCases(),
});

/** The keyword micro-workloads: [{ name, description, cases }]. */
export function micro() {
  const enumValues = range(1000, (i) => (i % 3 === 0 ? i : i % 3 === 1 ? `value-${i}` : { k: i }));
  const prims = range(1000, (i) => (i % 2 ? i : `s${i}`));
  const objs = range(200, (i) => ({ id: i, name: `n${i}`, tags: ["a", "b"] }));
  const ppObject = Object.fromEntries(range(1000, (i) => (i % 2 ? [`s_${i}`, "x"] : [`n_${i}`, i])));
  const deep = (n, leaf) => (n === 0 ? { value: leaf } : { value: n, child: deep(n - 1, leaf) });
  const reqNames = range(500, (i) => `field${i}`);
  const reqObject = Object.fromEntries(reqNames.map((n, i) => [n, i]));
  const { field499: _omit, ...reqMissing } = reqObject;
  const ints = range(1000, (i) => i);
  const tags = range(10_000, (i) => `${["user", "team", "org", "repo"][i % 4]}-${i}`);
  return [
    {
      name: "enum-1000",
      description: "1,000-value enum (numbers, strings, objects); hits at start/end, misses",
      cases: [
        {
          id: "enum",
          schema: { enum: enumValues },
          tests: [
            { data: 0, valid: true },
            { data: "value-997", valid: true },
            { data: { k: 998 }, valid: true },
            { data: "value-998", valid: false },
            { data: { k: 999 }, valid: false },
            { data: 1000, valid: false },
          ],
        },
      ],
    },
    {
      name: "uniqueItems-1000",
      description: "uniqueItems over 1,000 primitives (distinct; one duplicate at the end)",
      cases: [
        {
          id: "u",
          schema: { type: "array", uniqueItems: true },
          tests: [
            { data: prims, valid: true },
            { data: [...prims.slice(0, 999), 1], valid: false },
          ],
        },
      ],
    },
    {
      name: "uniqueItems-objects-200",
      description: "uniqueItems over 200 objects (distinct; one reordered duplicate at the end)",
      cases: [
        {
          id: "u",
          schema: { type: "array", uniqueItems: true },
          tests: [
            { data: objs, valid: true },
            { data: [...objs.slice(0, 199), { tags: ["a", "b"], name: "n3", id: 3 }], valid: false },
          ],
        },
      ],
    },
    {
      name: "patternProperties-1000",
      description: "patternProperties over an object with 1,000 keys, additionalProperties: false",
      cases: [
        {
          id: "pp",
          schema: {
            type: "object",
            patternProperties: { "^s_\\d+$": { type: "string" }, "^n_\\d+$": { type: "integer" } },
            additionalProperties: false,
          },
          tests: [
            { data: ppObject, valid: true },
            { data: { ...ppObject, n_998: "x" }, valid: false },
            { data: { ...ppObject, other: 1 }, valid: false },
          ],
        },
      ],
    },
    {
      name: "nested-50",
      description: "50-deep instance through a recursive $ref",
      cases: [
        {
          id: "deep",
          schema: {
            $ref: "#/$defs/node",
            $defs: {
              node: {
                type: "object",
                properties: { value: { type: "integer" }, child: { $ref: "#/$defs/node" } },
                required: ["value"],
                additionalProperties: false,
              },
            },
          },
          tests: [
            { data: deep(50, 0), valid: true },
            { data: deep(50, "x"), valid: false },
          ],
        },
      ],
    },
    {
      name: "required-500",
      description: "500 required properties (all present; last one missing)",
      cases: [
        {
          id: "req",
          schema: { type: "object", required: reqNames },
          tests: [
            { data: reqObject, valid: true },
            { data: reqMissing, valid: false },
          ],
        },
      ],
    },
    {
      name: "items-1000",
      description: "items over 1,000 integers (all valid; last invalid)",
      cases: [
        {
          id: "items",
          schema: { type: "array", items: { type: "integer", minimum: 0 } },
          tests: [
            { data: ints, valid: true },
            { data: [...ints.slice(0, 999), -1], valid: false },
          ],
        },
      ],
    },
    {
      name: "pattern-10k",
      description: "pattern over a 10,000-item array of short strings (all match; the last does not)",
      cases: [
        {
          id: "pattern",
          schema: { type: "array", items: { type: "string", pattern: "^[a-z]+-[0-9]{1,5}$" } },
          tests: [
            { data: tags, valid: true },
            { data: [...tags.slice(0, 9999), "user_9999"], valid: false },
          ],
        },
      ],
    },
    {
      name: "contains-1000",
      description: "contains over 1,000 items (match only at the end; no match)",
      cases: [
        {
          id: "contains",
          schema: { type: "array", contains: { type: "string", minLength: 3 } },
          tests: [
            { data: [...ints.slice(0, 999), "abc"], valid: true },
            { data: ints, valid: false },
          ],
        },
      ],
    },
  ];
}
