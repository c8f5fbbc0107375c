/**
 * What a model is told of arguments or a result the boundary refuses (docs/guide/admission.md "What a model is
 * told"): one line per
 * failing keyword, naming the instance location and the constraint, rendered from the keyword's typed parameters and
 * the schema's own text (a `const` value, an `enum` list, a `pattern`), never from an instance value or an instance key
 * the schema does not declare. A key reached through `additionalProperties`, `patternProperties`,
 * `unevaluatedProperties` or `propertyNames` is shown as `*`. One exception, for arguments only (`namesKeys`): the
 * names an `additionalProperties` of `false` refuses are the model's own, and what it needs to fix its call, so they
 * are named, escaped and bounded (`nameList`); a result's keys are the server's and stay unnamed.
 */

import { preview } from "../../engine/json/json.js";
import { indexList, plural, quoteList, valueList } from "../../engine/output/messages.js";
import type { KeywordResult, NodeResult, Params } from "../../engine/output/output.js";

/** Keywords whose subschemas apply to a member the schema names (`properties`) or to an array index. */
const SHOWN_MEMBERS: ReadonlySet<string> = new Set([
  "properties",
  "prefixItems",
  "items",
  "contains",
  "unevaluatedItems",
]);

/** A member no schema names: every other keyword that moves to a member of the instance. */
const HIDDEN_MEMBER = "/*";

/**
 * The model-facing lines for an invalid value's evaluation tree, one per failing keyword, in evaluation order; the
 * value's root is named `label` (`(arguments)`, `(result)`).
 */
export function withheldLines(root: NodeResult, label: string, namesKeys = false): string[] {
  const lines: string[] = [];
  // Iterative: the tree is as deep as the evaluation was (maxEvaluationDepth), which need not fit the stack.
  const stack: [NodeResult, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [node, shown] = stack.pop() as [NodeResult, string];
    const next: [NodeResult, string][] = [];
    for (const k of node.keywords) {
      if (k.valid) continue;
      if (k.error !== undefined) lines.push(line(k, shown, label, namesKeys));
      for (const child of k.children) {
        if (child.valid) continue;
        const step = child.instanceLocation.slice(node.instanceLocation.length);
        next.push([child, step === "" ? shown : shown + (SHOWN_MEMBERS.has(k.keyword) ? step : HIDDEN_MEMBER)]);
      }
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as [NodeResult, string]);
  }
  return lines;
}

function line(k: KeywordResult, shown: string, label: string, namesKeys: boolean): string {
  const where = k.keywordLocation === "" ? "the schema root" : k.keywordLocation;
  const refused = namesKeys && k.keyword === "additionalProperties" ? k.params?.additional : undefined;
  const text =
    refused !== undefined && refused.length > 0 ? notAllowed(refused) : constraint(k.keyword, k.params ?? {});
  return `${shown === "" ? label : shown}: ${text} (expected by "${k.keyword}" at ${where})`;
}

const BOUNDS: Readonly<Record<string, string>> = {
  maximum: "at most",
  minimum: "at least",
  exclusiveMaximum: "less than",
  exclusiveMinimum: "greater than",
  maxLength: "at most",
  minLength: "at least",
  maxItems: "at most",
  minItems: "at least",
  maxProperties: "at most",
  minProperties: "at least",
};

/** The constraint a keyword states, from its parameters that come from the schema. */
function constraint(keyword: string, p: Params): string {
  const limit = typeof p.limit === "number" ? p.limit : NaN;
  switch (keyword) {
    case "type":
      return `must be ${typeNames(p.expected ?? [])}`;
    case "const":
      return `must be ${preview(p.allowed)}`;
    case "enum":
      return `must be ${alternatives(Array.isArray(p.allowed) ? p.allowed : [])}`;
    case "pattern":
      return `must match the pattern ${JSON.stringify(String(p.pattern))}`;
    case "format":
      return `must be a valid ${String(p.format)}`;
    case "maximum":
    case "minimum":
    case "exclusiveMaximum":
    case "exclusiveMinimum":
      return `must be ${BOUNDS[keyword]} ${limit}`;
    case "maxLength":
    case "minLength":
      return `must be ${BOUNDS[keyword]} ${plural(limit, "character")} long`;
    case "maxItems":
    case "minItems":
      return `must have ${BOUNDS[keyword]} ${plural(limit, "item")}`;
    case "maxProperties":
    case "minProperties":
      return `must have ${BOUNDS[keyword]} ${plural(limit, "property", "properties")}`;
    case "multipleOf":
      return `must be a multiple of ${String(p.multipleOf)}`;
    case "required": {
      const missing = p.missing ?? [];
      return `must have required ${missing.length === 1 ? "property" : "properties"} ${quoteList(missing)}`;
    }
    case "dependentRequired":
      return `must have ${quoteList(p.missing ?? [])} when ${JSON.stringify(String(p.property))} is present`;
    case "uniqueItems": {
      const [i, j] = p.duplicates ?? [];
      return `must not contain duplicate items (items ${i} and ${j} are equal)`;
    }
    case "contains": {
      const min = p.min ?? 1;
      return (p.count ?? 0) < min
        ? `must contain at least ${plural(min, "item")} matching the contains schema`
        : `must contain at most ${plural(p.max ?? 0, "item")} matching the contains schema`;
    }
    case "items":
      return `must have at most ${plural(limit, "item")}`;
    case "additionalProperties":
      return "must not have properties other than those the schema allows";
    case "unevaluatedProperties":
      return "must not have unevaluated properties";
    case "unevaluatedItems":
      return "must not have unevaluated items";
    case "anyOf":
      return p.values !== undefined ? anyOfValues(p.values, p.types ?? []) : "must match at least one schema in anyOf";
    case "oneOf": {
      const matched = p.matched ?? [];
      return `must match exactly one schema in oneOf, matched ${matched.length === 0 ? "none" : indexList(matched)}`;
    }
    case "allOf":
      return "must match all schemas in allOf";
    case "not":
      return "must not match the schema in not";
    case "false":
      return "no value is allowed here (the schema is false)";
    case "":
      // The validator's own rule, not a keyword's: a value that is not JSON data is never valid.
      return "must be JSON data (no functions, undefined, non-finite numbers, accessors or class instances)";
    case "contentEncoding":
      return `must be valid ${String(p.contentEncoding)}`;
    case "contentMediaType":
      return `must be valid ${String(p.contentMediaType)}`;
    case "contentSchema":
      return "decoded content must be valid against contentSchema";
    default:
      return `does not satisfy "${keyword}"`;
  }
}

/** The properties an `additionalProperties` of `false` refuses in arguments, named. */
function notAllowed(names: readonly string[]): string {
  const which = names.length === 1 ? "property" : "properties";
  return `must not have ${which} ${nameList(names)}, which the schema does not allow`;
}

/** The longest name shown, in UTF-16 code units; a longer one is cut and ends with `…`. */
const MAX_NAME = 64;

/**
 * Names from the instance as a model may read them: at most 5 (then how many more), each cut to `MAX_NAME`, written as
 * a JSON string whose controls, format characters (bidi, zero-width, tags) and line separators are `\uXXXX` escapes.
 */
function nameList(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => {
    let cut = name.length > MAX_NAME ? name.slice(0, MAX_NAME) : name;
    if (/[\uD800-\uDBFF]$/.test(cut) && cut.length < name.length) cut = cut.slice(0, -1);
    const text = JSON.stringify(cut).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, escaped);
    return cut.length < name.length ? text.slice(0, -1) + '…"' : text;
  });
  return shown.join(", ") + (names.length > 5 ? `, … (${names.length - 5} more)` : "");
}

/** A character as `\uXXXX` escapes, one per UTF-16 code unit. */
function escaped(c: string): string {
  let out = "";
  for (let i = 0; i < c.length; i++) out += "\\u" + c.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0");
  return out;
}

function typeNames(names: readonly string[]): string {
  return names.length === 1 ? String(names[0]) : `one of ${names.join(", ")}`;
}

function alternatives(values: readonly unknown[]): string {
  return values.length === 1 ? preview(values[0], 30) : `one of ${valueList(values)}`;
}

function anyOfValues(values: readonly unknown[], types: readonly string[]): string {
  const parts = [alternatives(values)];
  if (types.length > 0) parts.push(`of type ${[...new Set(types)].join(" or ")}`);
  return `must be ${parts.join(" or ")}`;
}
