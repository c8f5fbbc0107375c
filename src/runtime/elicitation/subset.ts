/**
 * The MCP form-mode elicitation subset (MCP 2025-11-25 `schema.ts`, `ElicitRequestFormParams.requestedSchema` and
 * `PrimitiveSchemaDefinition`; unchanged in 2026-07-28): a flat object whose properties are each one of the
 * primitive forms below. Keywords that only annotate (`title`, `description`, `$comment`, `examples`, `deprecated`,
 * `readOnly`, `writeOnly`, `x-…`) are allowed anywhere: they constrain nothing. Anything else is outside the subset
 * and named by its JSON Pointer. What the keywords' values must be (`minLength` a non-negative integer, …) is left to
 * the 2020-12 meta-schema, which the engine checks when the schema is compiled.
 */

import { isObject } from "../../engine/json/json.js";
import { appendPointer } from "../../engine/json/pointer.js";

/** Where a requested schema leaves the subset, and why (the message quotes no value). */
export interface SubsetProblem {
  readonly pointer: string;
  readonly message: string;
}

/** A deprecated form the subset still accepts, and where it is used. */
export interface DeprecatedForm {
  /** The JSON Pointer of the deprecated keyword. */
  readonly pointer: string;
  /** What is deprecated and what replaces it. */
  readonly message: string;
}

const ANNOTATIONS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

const FORMATS: ReadonlySet<string> = new Set(["email", "uri", "date", "date-time"]);

/** The keywords each form declares beside the annotations (schema.ts `StringSchema`, `NumberSchema`, …). */
const FORMS = {
  root: ["$schema", "type", "properties", "required"],
  string: ["type", "minLength", "maxLength", "format", "default"],
  number: ["type", "minimum", "maximum", "default"],
  boolean: ["type", "default"],
  enum: ["type", "enum", "default"],
  legacyEnum: ["type", "enum", "enumNames", "default"],
  titledEnum: ["type", "oneOf", "default"],
  multiSelect: ["type", "items", "minItems", "maxItems", "default"],
  untitledItems: ["type", "enum"],
  titledItems: ["anyOf"],
  option: ["const", "title"],
} as const satisfies Record<string, readonly string[]>;

const NESTING = "nested objects, arrays of objects and other advanced JSON Schema features are not part of it";

function outside(pointer: string, what: string): SubsetProblem {
  return { pointer, message: `${what}: the MCP form-mode elicitation subset does not allow it` };
}

/** The first keyword of `node` that `allowed` does not name (annotations aside), as a problem. */
function unknownKeyword(node: Record<string, unknown>, allowed: readonly string[], at: string, form: string) {
  for (const key of Object.keys(node)) {
    if (allowed.includes(key) || ANNOTATIONS.has(key) || key.startsWith("x-")) continue;
    return outside(appendPointer(at, key), `keyword not declared for ${form}`);
  }
  return undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** `[{ const, title }]`, both strings (a titled enum's options). */
function optionsProblem(options: unknown, at: string, keyword: "oneOf" | "anyOf"): SubsetProblem | undefined {
  if (!Array.isArray(options)) return outside(at, `${keyword} that is not an array of { const, title } options`);
  for (let i = 0; i < options.length; i++) {
    const option: unknown = options[i];
    const where = appendPointer(at, i);
    if (!isObject(option)) return outside(where, "an option that is not an object { const, title }");
    const extra = unknownKeyword(option, FORMS.option, where, "an enum option");
    if (extra !== undefined) return extra;
    if (typeof option["const"] !== "string")
      return outside(appendPointer(where, "const"), "an option without a string const");
    if (typeof option["title"] !== "string")
      return outside(appendPointer(where, "title"), "an option without a string title");
  }
  return undefined;
}

/** The string forms: plain, untitled enum, deprecated `enumNames` enum, titled `oneOf` enum. */
function stringProblem(node: Record<string, unknown>, at: string, deprecated: DeprecatedForm[]) {
  if (Object.hasOwn(node, "enum")) {
    const legacy = Object.hasOwn(node, "enumNames");
    const extra = unknownKeyword(node, legacy ? FORMS.legacyEnum : FORMS.enum, at, "a single-select enum");
    if (extra !== undefined) return extra;
    if (!isStringArray(node["enum"]))
      return outside(appendPointer(at, "enum"), "an enum of values that are not strings");
    if (!legacy) return undefined;
    const names = node["enumNames"];
    if (!isStringArray(names) || names.length !== node["enum"].length) {
      return outside(appendPointer(at, "enumNames"), "enumNames that are not one string per enum value");
    }
    deprecated.push({
      pointer: appendPointer(at, "enumNames"),
      message: "enumNames is deprecated (MCP 2025-11-25 LegacyTitledEnumSchema): use oneOf with { const, title }",
    });
    return undefined;
  }
  if (Object.hasOwn(node, "oneOf")) {
    const extra = unknownKeyword(node, FORMS.titledEnum, at, "a titled single-select enum");
    return extra ?? optionsProblem(node["oneOf"], appendPointer(at, "oneOf"), "oneOf");
  }
  const extra = unknownKeyword(node, FORMS.string, at, "a string");
  if (extra !== undefined) return extra;
  const format = node["format"];
  if (format !== undefined && !(typeof format === "string" && FORMATS.has(format))) {
    return outside(appendPointer(at, "format"), "a format other than email, uri, date or date-time");
  }
  return undefined;
}

/** The multi-select enums: `items` is `{ type: "string", enum }` or `{ anyOf: [{ const, title }] }`. */
function arrayProblem(node: Record<string, unknown>, at: string): SubsetProblem | undefined {
  const extra = unknownKeyword(node, FORMS.multiSelect, at, "a multi-select enum");
  if (extra !== undefined) return extra;
  const items = node["items"];
  const where = appendPointer(at, "items");
  if (!isObject(items))
    return outside(Object.hasOwn(node, "items") ? where : at, `an array whose items are not an enum (${NESTING})`);
  if (Object.hasOwn(items, "anyOf")) {
    const other = unknownKeyword(items, FORMS.titledItems, where, "titled multi-select items");
    return other ?? optionsProblem(items["anyOf"], appendPointer(where, "anyOf"), "anyOf");
  }
  const other = unknownKeyword(items, FORMS.untitledItems, where, "multi-select items");
  if (other !== undefined) return other;
  if (items["type"] !== "string")
    return outside(appendPointer(where, "type"), "multi-select items that are not strings");
  if (!isStringArray(items["enum"]))
    return outside(appendPointer(where, "enum"), "multi-select items without an enum of strings");
  return undefined;
}

/** One property: its `type` says which form it must be. */
function propertyProblem(node: unknown, at: string, deprecated: DeprecatedForm[]): SubsetProblem | undefined {
  if (!isObject(node)) return outside(at, "a property schema that is not an object");
  const type = node["type"];
  switch (type) {
    case "string":
      return stringProblem(node, at, deprecated);
    case "number":
    case "integer":
      return unknownKeyword(node, FORMS.number, at, "a number");
    case "boolean":
      return unknownKeyword(node, FORMS.boolean, at, "a boolean");
    case "array":
      return arrayProblem(node, at);
    default:
      if (!Object.hasOwn(node, "type")) return outside(at, "a property without a primitive type");
      return outside(
        appendPointer(at, "type"),
        `a property type other than string, number, integer, boolean or a multi-select array (${NESTING})`,
      );
  }
}

/**
 * The first place where `schema` (a JSON object, already checked as JSON data within the limits) leaves the subset,
 * or undefined; deprecated forms it accepts are added to `deprecated`.
 */
export function subsetProblem(
  schema: Record<string, unknown>,
  deprecated: DeprecatedForm[],
): SubsetProblem | undefined {
  const extra = unknownKeyword(schema, FORMS.root, "", "the requested schema's root");
  if (extra !== undefined) return extra;
  if (schema["type"] !== "object")
    return outside(Object.hasOwn(schema, "type") ? "/type" : "", 'a root whose type is not "object"');
  const properties = schema["properties"];
  if (!isObject(properties))
    return outside(Object.hasOwn(schema, "properties") ? "/properties" : "", "a root without properties");
  for (const name of Object.keys(properties)) {
    const problem = propertyProblem(properties[name], appendPointer("/properties", name), deprecated);
    if (problem !== undefined) return problem;
  }
  const required = schema["required"];
  if (required === undefined) return undefined;
  if (!isStringArray(required)) return outside("/required", "required that is not an array of property names");
  for (let i = 0; i < required.length; i++) {
    if (!Object.hasOwn(properties, required[i] as string)) {
      return outside(appendPointer("/required", i), "a required name that is not one of the properties");
    }
  }
  return undefined;
}
