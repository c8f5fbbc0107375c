/**
 * A schema object split at its subschema positions, for comparing two versions of a schema subschema by subschema:
 * the 2020-12 dialect's positions (Core 2020-12 §8.2.4, §10; `definitions`, Validation 2020-12 Appendix A) plus
 * draft-07's (Validation draft-07 §6.4.1 array-form `items`, §6.4.2 `additionalItems`, §6.5.7 `dependencies`),
 * since many MCP servers still publish draft-07 schemas.
 */

import { isObject } from "../../engine/json/json.js";
import { escapeToken } from "../../engine/json/pointer.js";
import { dialect2020_12 } from "../../vocabularies/dialect-2020-12.js";

const POSITIONS: ReadonlyMap<string, "schema" | "array" | "map"> = new Map([
  ...dialect2020_12.subschemaKeywords,
  ["additionalItems", "schema"],
  ["dependencies", "map"],
]);

/** A subschema of a schema object: the tokens from the object to it, and the subschema. */
interface Subschema {
  readonly tokens: readonly string[];
  readonly schema: unknown;
}

/** A keyword holding an object or array of subschemas. */
interface Container {
  /** Whether it holds no member at all. */
  readonly empty: boolean;
}

/**
 * What a schema object consists of, each part keyed by its JSON Pointer relative to the object. Together the parts
 * determine the object, so two objects are the same JSON exactly when their parts are.
 */
export interface SchemaParts {
  /** The subschemas at their positions, whatever their values (booleans, or malformed ones, too). */
  readonly subschemas: ReadonlyMap<string, Subschema>;
  /**
   * Everything else: each keyword that holds no subschema (a position keyword whose value has the wrong shape
   * included), and each `dependencies` member that is a list of property names.
   */
  readonly keywords: ReadonlyMap<string, unknown>;
  /** The keywords holding an object or array of subschemas (`properties`, `allOf`, …), and whether it is empty. */
  readonly containers: ReadonlyMap<string, Container>;
}

/** Splits a schema object into its parts. */
export function schemaParts(schema: Readonly<Record<string, unknown>>): SchemaParts {
  const subschemas = new Map<string, Subschema>();
  const keywords = new Map<string, unknown>();
  const containers = new Map<string, Container>();
  for (const keyword of Object.keys(schema)) {
    const value = schema[keyword];
    const at = escapeToken(keyword);
    const shape = keyword === "items" && Array.isArray(value) ? "array" : POSITIONS.get(keyword);
    if (shape === "schema") {
      subschemas.set(at, { tokens: [keyword], schema: value });
    } else if (shape === "array" && Array.isArray(value)) {
      containers.set(keyword, { empty: value.length === 0 });
      value.forEach((item: unknown, i) => subschemas.set(`${at}/${i}`, { tokens: [keyword, String(i)], schema: item }));
    } else if (shape === "map" && isObject(value)) {
      const names = Object.keys(value);
      containers.set(keyword, { empty: names.length === 0 });
      for (const name of names) {
        const member = value[name];
        const memberAt = `${at}/${escapeToken(name)}`;
        // Validation draft-07 §6.5.7: a `dependencies` member is a subschema or a list of property names.
        if (keyword === "dependencies" && Array.isArray(member)) keywords.set(memberAt, member);
        else subschemas.set(memberAt, { tokens: [keyword, name], schema: member });
      }
    } else {
      keywords.set(at, value);
    }
  }
  return { subschemas, keywords, containers };
}
