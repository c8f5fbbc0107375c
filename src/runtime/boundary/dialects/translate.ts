/**
 * Second pass of the draft-07 upgrade: rewrites one document's schema objects into 2020-12, using the
 * first pass's plan for every `$ref`, and records each change.
 */
import { defineOwn } from "../../../engine/json/json.js";
import { hasScheme } from "../../../engine/json/uri.js";
import { Blocked, MAX_DEPTH, type UpgradeChange } from "./common.js";
import { definitionsNames } from "./defs.js";
import { DRAFT07_CONSTRAINTS, isSchema, isStringSet, NEWER_KEYWORDS, regexProblem, valueProblem } from "./keywords.js";
import { POSITIONS } from "./positions.js";
import type { DocumentPlan } from "./scan.js";
import { childPointer, isObject, own, splitFragment, type JsonObject } from "./uri.js";

const DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** Draft-07 keywords that hold exactly one subschema and keep their name. */
/** Positions holding one subschema under the same name in 2020-12 (`additionalItems` is renamed, below). */
const SINGLE = new Set(
  [...POSITIONS].filter(([, p]) => p.holds === "schema" && p.renamed === undefined).map(([key]) => key),
);

export class Upgrader {
  private readonly changes: UpgradeChange[] = [];
  private sawFormat = false;

  constructor(private readonly plan: DocumentPlan) {}

  /** Refuses a root that is not a schema or declares another dialect, before anything else is looked at. */
  static checkRoot(schema: unknown): void {
    if (typeof schema === "boolean") return;
    if (!isObject(schema)) throw new Blocked("", "a draft-07 schema must be an object or a boolean");
    const declared = own(schema, "$schema");
    if (declared !== undefined && !(typeof declared === "string" && DRAFT_07.test(declared))) {
      throw new Blocked("/$schema", `$schema ${JSON.stringify(declared)} is not draft-07`);
    }
  }

  document(): { schema: unknown; changes: UpgradeChange[] } {
    const schema = this.schema(this.plan.root, "", 0);
    if (this.sawFormat) {
      this.changes.unshift({
        pointer: "",
        rule: "format-annotation",
        message: "format is an annotation in 2020-12; draft-07 allowed validators to assert it",
      });
    }
    return { schema, changes: this.changes };
  }

  private note(pointer: string, rule: string, message: string): void {
    this.changes.push({ pointer, rule, message });
  }

  /** Translates one live draft-07 subschema (already checked by the scan). */
  private schema(node: unknown, pointer: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (!isObject(node)) return node; // a boolean schema
    if (Object.hasOwn(node, "$ref")) return this.refSchema(node, pointer, depth);
    const out: JsonObject = {};
    const items = own(node, "items");
    let defsDone = false;
    for (const key of Object.keys(node)) {
      const value = node[key];
      const at = childPointer(pointer, key);
      if (SINGLE.has(key)) {
        defineOwn(out, key, this.schema(value, at, depth + 1));
        continue;
      }
      switch (key) {
        case "$schema":
          this.dialect(node, value, at, pointer === "", out);
          break;
        case "$id":
          this.id(value as string, at, out);
          break;
        case "definitions":
        case "$defs":
          if (!defsDone) this.defs(node, pointer, depth, out, undefined);
          defsDone = true;
          break;
        case "patternProperties":
          for (const name of Object.keys(value as JsonObject)) {
            const problem = regexProblem(name);
            if (problem !== undefined)
              throw new Blocked(childPointer(at, name), `not a regular expression: ${problem}`);
          }
          defineOwn(out, key, this.schemaMap(value, at, depth));
          break;
        case "properties":
          defineOwn(out, key, this.schemaMap(value, at, depth));
          break;
        case "allOf":
        case "anyOf":
        case "oneOf":
          defineOwn(out, key, this.schemaList(value, at, depth));
          break;
        case "dependencies":
          this.dependencies(value as JsonObject, at, depth, out);
          break;
        case "items":
          if (!Array.isArray(value)) {
            defineOwn(out, key, this.schema(value, at, depth + 1));
            break;
          }
          this.note(at, "items-array-to-prefixItems", "array-form items → prefixItems");
          if (value.length > 0) defineOwn(out, "prefixItems", this.schemaList(value, at, depth));
          break;
        case "additionalItems":
          if (Array.isArray(items)) {
            this.note(at, "additionalItems-to-items", "additionalItems beside array-form items → items");
            defineOwn(out, "items", this.schema(value, at, depth + 1));
          } else {
            this.note(
              at,
              "ignored-keyword-dropped",
              "additionalItems without array-form items had no effect in draft-07; dropped",
            );
          }
          break;
        default:
          if (NEWER_KEYWORDS.has(key)) {
            this.newer(key, value, at, out);
            break;
          }
          if (key === "format") this.sawFormat = true;
          this.keep(key, value, at, depth, out);
      }
    }
    return out;
  }

  /** Copies a keyword's value (data such as enum, const, default; assertion arguments; unknown keywords). */
  private keep(key: string, value: unknown, at: string, depth: number, out: JsonObject): void {
    const problem = valueProblem(key, value);
    if (problem !== undefined) {
      throw new Blocked(at, `"${key}" ${problem}: the schema is invalid in draft-07 and 2020-12 alike`);
    }
    defineOwn(out, key, clone(value, at, depth));
  }

  /** A keyword only 2020-12 defines: ignored by draft-07, so it must not act after the upgrade. */
  private newer(key: string, value: unknown, at: string, out: JsonObject): void {
    if (key === "deprecated" && typeof value === "boolean") {
      defineOwn(out, key, value);
      this.note(at, "deprecated-kept", `"deprecated" is not a draft-07 keyword; kept as the 2020-12 annotation`);
      return;
    }
    const effect = NEWER_KEYWORDS.get(key) as string;
    this.note(
      at,
      "newer-keyword-dropped",
      `"${key}" is not a draft-07 keyword (ignored there); in 2020-12 it would ${effect}; dropped`,
    );
  }

  /** In draft-07 every keyword beside `$ref` is ignored (Core draft-07 §8.3); referenced definitions survive. */
  private refSchema(node: JsonObject, pointer: string, depth: number): JsonObject {
    const out: JsonObject = {};
    let defsDone = false;
    for (const key of Object.keys(node)) {
      const at = childPointer(pointer, key);
      if (key === "$ref") {
        const plan = this.plan.refs.get(at);
        if (plan === undefined) throw new Error(`upgrade-draft07: no plan for the $ref at "${at}"`);
        defineOwn(out, key, plan.value);
        if (plan.change !== undefined) this.changes.push(plan.change);
      } else if (key === "$schema" && pointer === "") {
        this.dialect(node, node[key], at, true, out);
      } else if ((key === "definitions" || key === "$defs") && this.plan.keptDefinitions.has(at)) {
        if (!defsDone) this.defs(node, pointer, depth, out, this.plan.keptDefinitions);
        defsDone = true;
      } else if (key === "$id") {
        this.note(at, "ref-sibling-dropped", idBesideRef(node));
      } else if (DRAFT07_CONSTRAINTS.has(key)) {
        const what = `"${key}" beside $ref was ignored by draft-07, though it would constrain the instance; dropped`;
        this.note(at, "ref-sibling-constraint-dropped", what);
      } else {
        this.note(at, "ref-sibling-dropped", `"${key}" beside $ref was ignored by draft-07; dropped`);
      }
    }
    return out;
  }

  /**
   * Merges `$defs` (unknown to draft-07, but a `$ref` can point into it) and `definitions` into one 2020-12
   * `$defs`, named as `definitionsNames` decides. Beside `$ref`, only the containers in `kept` are.
   */
  private defs(node: JsonObject, pointer: string, depth: number, out: JsonObject, kept: Set<string> | undefined) {
    const merged: JsonObject = {};
    const defsAt = childPointer(pointer, "$defs");
    const definitionsAt = childPointer(pointer, "definitions");
    const defs = own(node, "$defs");
    const definitions = own(node, "definitions");
    let any = false;
    if (defs !== undefined && (kept === undefined || kept.has(defsAt))) {
      if (!isObject(defs)) {
        this.note(defsAt, "newer-keyword-dropped", "$defs is not a draft-07 keyword and holds no schema; dropped");
      } else {
        any = true;
        this.note(defsAt, "defs-kept", "$defs is not a draft-07 keyword, but a $ref can point into it; kept");
        for (const name of Object.keys(defs)) {
          const at = childPointer(defsAt, name);
          if (isSchema(defs[name])) defineOwn(merged, name, this.schema(defs[name], at, depth + 1));
          else this.note(at, "newer-keyword-dropped", `$defs["${name}"] is not a schema, so nothing uses it; dropped`);
        }
      }
    }
    if (isObject(definitions) && (kept === undefined || kept.has(definitionsAt))) {
      any = true;
      const beside = kept === undefined ? "" : " (beside $ref, referenced)";
      this.note(definitionsAt, "definitions-to-defs", `definitions${beside} → $defs`);
      const names = definitionsNames(node);
      for (const name of Object.keys(definitions)) {
        const to = names.get(name) as string;
        const at = childPointer(definitionsAt, name);
        if (to !== name) {
          this.note(at, "definitions-renamed", `definitions["${name}"] → $defs["${to}"] ($defs has it)`);
        }
        defineOwn(merged, to, this.schema(definitions[name], at, depth + 1));
      }
    }
    if (any) defineOwn(out, "$defs", merged);
  }

  private dialect(node: JsonObject, value: unknown, at: string, root: boolean, out: JsonObject): void {
    if (typeof value !== "string" || !DRAFT_07.test(value)) {
      throw new Blocked(at, `$schema ${JSON.stringify(value)} is not draft-07`);
    }
    const id = own(node, "$id");
    if (root || (typeof id === "string" && splitFragment(id).document !== "")) {
      defineOwn(out, "$schema", DIALECT_2020_12);
      this.note(at, "schema-dialect", `$schema draft-07 → ${DIALECT_2020_12}`);
    } else {
      this.note(at, "ignored-keyword-dropped", "$schema in a subschema that is not a resource root; dropped");
    }
  }

  private id(id: string, at: string, out: JsonObject): void {
    const { document, fragment } = splitFragment(id);
    if (document === "" && fragment?.startsWith("/")) {
      // The scan refused a "#/pointer" $id that a $ref could read two ways (RFC 3986 §5.2.2 ignores a base fragment).
      this.note(at, "id-pointer-dropped", `$id "${id}" only restates a location and changes no base URI; dropped`);
    } else if (fragment !== undefined && fragment !== "") {
      defineOwn(out, "$anchor", fragment);
      this.note(at, "id-fragment-to-anchor", `$id "${id}" → $anchor "${fragment}"`);
    } else if (document === "") {
      this.note(at, "ignored-keyword-dropped", `$id "${id}" names the current base URI; dropped`);
    } else {
      defineOwn(out, "$id", document);
      if (fragment === "") this.note(at, "id-empty-fragment-removed", `$id "${id}" → "${document}"`);
    }
  }

  private dependencies(deps: JsonObject, at: string, depth: number, out: JsonObject): void {
    const required: JsonObject = {};
    const schemas: JsonObject = {};
    for (const name of Object.keys(deps)) {
      const dep = deps[name];
      const depAt = childPointer(at, name);
      if (Array.isArray(dep)) {
        if (!isStringSet(dep)) throw new Blocked(depAt, "a property dependency must list distinct strings");
        defineOwn(required, name, [...dep]);
        this.note(depAt, "dependencies-to-dependentRequired", `dependencies["${name}"] → dependentRequired`);
      } else {
        defineOwn(schemas, name, this.schema(dep, depAt, depth + 1));
        this.note(depAt, "dependencies-to-dependentSchemas", `dependencies["${name}"] → dependentSchemas`);
      }
    }
    if (Object.keys(required).length > 0) defineOwn(out, "dependentRequired", required);
    if (Object.keys(schemas).length > 0) defineOwn(out, "dependentSchemas", schemas);
    if (Object.keys(deps).length === 0) this.note(at, "ignored-keyword-dropped", "empty dependencies; dropped");
  }

  private schemaMap(value: unknown, at: string, depth: number): JsonObject {
    const map = value as JsonObject;
    const out: JsonObject = {};
    for (const name of Object.keys(map))
      defineOwn(out, name, this.schema(map[name], childPointer(at, name), depth + 1));
    return out;
  }

  private schemaList(value: unknown, at: string, depth: number): unknown[] {
    return (value as unknown[]).map((child, i) => this.schema(child, childPointer(at, i), depth + 1));
  }
}

/**
 * Why dropping an `$id` beside `$ref` is exact: draft-07 ignores it, so the `$ref` resolves against the
 * enclosing base URI before and after. A `$ref` with a relative path then depends on the retrieval URI (of
 * a root), which tools that honour the `$id` anyway would have taken from the `$id`: say so.
 */
function idBesideRef(node: JsonObject): string {
  const ref = own(node, "$ref") as string;
  const dropped = `"$id" beside $ref was ignored by draft-07 (Core draft-07 §8.3); dropped`;
  if (splitFragment(ref).document === "" || hasScheme(ref)) return dropped;
  return `${dropped}: $ref "${ref}" resolves against the enclosing base (a root's retrieval URI), not this $id`;
}

/** Deep-copies JSON data so the result shares nothing with the (possibly frozen) input. */
function clone(value: unknown, at: string, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Blocked(at, `value nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
  if (Array.isArray(value)) return value.map((item) => clone(item, at, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) defineOwn(out, key, clone(value[key], at, depth + 1));
  return out;
}
