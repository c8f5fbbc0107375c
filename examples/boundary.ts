/**
 * The boundary (docs/guide/boundary.md): a tool's input schema compiled once and every call's arguments checked on
 * the hot path, a result checked against the tool's output schema (its model text never quotes the result), a shared
 * cache, and a draft-07 schema refused until the host asks for the exact upgrade.
 */

import { InputSchema, OutputSchema, SchemaCache } from "backplane-agent-runtime";

const cache = new SchemaCache(); // structurally identical schemas compile once
const readFile = InputSchema.validateSchema(
  {
    type: "object",
    properties: { path: { type: "string", pattern: "^[^/]" }, head: { type: "integer", minimum: 1 } },
    required: ["path"],
    additionalProperties: false,
  },
  { cache },
);
if (!readFile.ok) throw new Error(readFile.error.message); // a Result: nothing throws

for (const args of [{ path: "notes/today.md" }, { path: "/etc/passwd", head: 0 }, null]) {
  const checked = readFile.value.validate(args);
  console.log(checked.ok ? `accepted: ${checked.value === args}` : checked.error.toModelText()); // the same object
}

// A result the tool returned, against its output schema: the model is told where and why, never the values.
const account = { type: "object", properties: { balance: { type: "number", minimum: 0 } }, required: ["balance"] };
const result = OutputSchema.validate(account, { balance: -1234.56, owner: "Ada" });
if (!result.ok) console.log(result.error.code, "|", result.error.toModelText(), "|", result.error.message);

// Draft-07 is refused unless the host asks for the exact translation.
const legacy = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", definitions: {} };
const refused = InputSchema.validateSchema(legacy);
if (!refused.ok) console.log(refused.error.class, refused.error.code);
const upgraded = InputSchema.validateSchema(legacy, { draft07: "upgrade" });
if (upgraded.ok) console.log(upgraded.value.upgraded?.map((c) => c.rule));

// Output:
// accepted: true
// The arguments do not match the tool's input schema (2 problems):
// - /head: must be at least 1 (expected by "minimum" at /properties/head/minimum)
// - /path: must match the pattern "^[^/]" (expected by "pattern" at /properties/path/pattern)
// The arguments do not match the tool's input schema (1 problem):
// - (arguments): must be an object
// output_invalid | The tool's result does not match its output schema (1 problem):
// - /balance: must be at least 0 (expected by "minimum" at /properties/balance/minimum) | the result does not match the output schema at "/balance": must be at least 0, got -1234.56
// unsupported_capability dialect_unsupported
// [ 'schema-dialect', 'definitions-to-defs' ]
