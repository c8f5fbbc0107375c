/**
 * A Gemini `parameters` schema (the OpenAPI 3.0 subset) back in JSON Schema 2020-12, so that the engine can judge
 * instances by it: `nullable: true` means "or null" (OpenAPI 3.0.0 §4.7.24: "allows sending a null value"), so
 * `{ …rest, nullable: true }` is `{ anyOf: [{ type: "null" }, { …rest }] }`; `nullable: false` says nothing.
 * `example` and `propertyOrdering` are annotations (2020-12 ignores unknown keywords). Nothing else differs in the
 * subset the profiles send. The input is never modified.
 */

const SCHEMA = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
const LIST = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);
const MAP = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);

export function fromOpenApi(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  let nullable = false;
  for (const [key, value] of Object.entries(schema)) {
    if (key === "nullable") {
      nullable = value === true;
      continue;
    }
    let mapped: unknown = value;
    if (SCHEMA.has(key)) mapped = fromOpenApi(value);
    else if (LIST.has(key) && Array.isArray(value)) mapped = value.map(fromOpenApi);
    else if (MAP.has(key) && typeof value === "object" && value !== null)
      mapped = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromOpenApi(v)]));
    Object.defineProperty(out, key, { value: mapped, enumerable: true, writable: true, configurable: true });
  }
  return nullable ? { anyOf: [{ type: "null" }, out] } : out;
}
