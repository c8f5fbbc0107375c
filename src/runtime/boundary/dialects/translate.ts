/**
 * Second pass of the upgrade: rewrites one document's schema objects into 2020-12, using the first pass's plan for
 * every reference, and records each change. What differs between the older dialects is read from their descriptions
 * (dialects.ts); the few rules only one dialect needs (draft-04's boolean exclusive bounds, 2019-09's recursive
 * references) are methods here.
 */
import { defineOwn } from "../../../engine/json/json.js";
import { hasScheme } from "../../../engine/json/uri.js";
import { Blocked, MAX_DEPTH, type UpgradeChange } from "./common.js";
import { definitionsNames } from "./defs.js";
import { URI_2020_12, type SourceDialect } from "./dialects.js";
import { ANNOTATIONS, draftValueProblem, isStringSet, regexProblem, valueProblem } from "./keywords.js";
import { isDialectSchema } from "./positions.js";
import { RECURSIVE_ANCHOR, type DocumentPlan } from "./scan.js";
import { childPointer, isObject, own, splitFragment, type JsonObject } from "./uri.js";

/** Positions holding one subschema under the same name in 2020-12 (`additionalItems` is renamed, below). */
const singles = new WeakMap<SourceDialect, ReadonlySet<string>>();
function single(dialect: SourceDialect): ReadonlySet<string> {
  let set = singles.get(dialect);
  if (set === undefined) {
    const names = [...dialect.positions].filter(([, p]) => p.holds === "schema" && p.renamed === undefined);
    singles.set(dialect, (set = new Set(names.map(([key]) => key))));
  }
  return set;
}

/** The schema object being translated: the original, where it is, how deep, and its translation being built. */
interface Site {
  readonly node: JsonObject;
  readonly pointer: string;
  readonly depth: number;
  readonly out: JsonObject;
}

/** The containers drafts 04–07 (`definitions`) and 2019-09 (`$defs`) keep schemas in. */
const DEFINITIONS: ReadonlySet<string> = new Set(["definitions", "$defs"]);

export class Upgrader {
  private readonly changes: UpgradeChange[] = [];
  private readonly dialect: SourceDialect;
  private sawFormat = false;

  constructor(private readonly plan: DocumentPlan) {
    this.dialect = plan.dialect;
  }

  /** Refuses a root that is not a schema or declares another dialect, before anything else is looked at. */
  static checkRoot(schema: unknown, dialect: SourceDialect): void {
    if (typeof schema === "boolean" && dialect.booleanSchemas) return;
    if (!isObject(schema)) throw new Blocked("", `a ${dialect.name} schema must be an object or a boolean`);
    const declared = own(schema, "$schema");
    if (declared !== undefined && !(typeof declared === "string" && dialect.declared.test(declared))) {
      throw new Blocked("/$schema", `$schema ${JSON.stringify(declared)} is not ${dialect.name}`);
    }
  }

  document(): { schema: unknown; changes: UpgradeChange[] } {
    const schema = this.schema(this.plan.root, "", 0);
    if (this.sawFormat && this.dialect.formatMayAssert) {
      this.changes.unshift({
        pointer: "",
        rule: "format-annotation",
        message: `format is an annotation in 2020-12; ${this.dialect.name} allowed validators to assert it`,
      });
    }
    return { schema, changes: this.changes };
  }

  private note(pointer: string, rule: string, message: string): void {
    this.changes.push({ pointer, rule, message });
  }

  /** Translates one live subschema (already checked by the scan). */
  private schema(node: unknown, pointer: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (!isObject(node)) return node; // a boolean schema
    if (this.dialect.refAlone && Object.hasOwn(node, "$ref")) return this.refSchema({ node, pointer, depth, out: {} });
    const site: Site = { node, pointer, depth, out: {} };
    const appended: JsonObject[] = [];
    let defsDone = false;
    for (const key of Object.keys(node)) {
      if (DEFINITIONS.has(key) && this.dialect.refAlone) {
        // Both containers become one `$defs`, translated once.
        if (!defsDone) this.defs(site, undefined);
        defsDone = true;
      } else this.keyword(site, key, appended);
    }
    if (appended.length > 0) {
      const allOf = own(site.out, "allOf");
      defineOwn(site.out, "allOf", [...(Array.isArray(allOf) ? allOf : []), ...appended]);
    }
    return site.out;
  }

  /** Translates one keyword of a schema object into `site.out`; a second `$ref` of 2019-09 goes to `appended`. */
  private keyword(site: Site, key: string, appended: JsonObject[]): void {
    const { node, pointer, depth, out } = site;
    const dialect = this.dialect;
    const value = node[key];
    const at = childPointer(pointer, key);
    if (dialect.newer.has(key)) this.newer(key, value, at, out);
    else if (single(dialect).has(key)) defineOwn(out, key, this.schema(value, at, depth + 1));
    else if (key === "$schema") this.declared(site);
    else if (key === dialect.id) this.id(value as string, at, out);
    else if (key === "$ref" || key === "$recursiveRef") this.reference(node, at, out, appended);
    else if (key === "$recursiveAnchor") this.recursiveAnchor(value, pointer, at, out);
    else if (key === "patternProperties") {
      for (const name of Object.keys(value as JsonObject)) {
        const problem = regexProblem(name);
        if (problem !== undefined) throw new Blocked(childPointer(at, name), `not a regular expression: ${problem}`);
      }
      defineOwn(out, key, this.schemaMap(value, at, depth));
    } else if (key === "properties" || key === "dependentSchemas" || DEFINITIONS.has(key))
      defineOwn(out, key, this.schemaMap(value, at, depth));
    else if (key === "allOf" || key === "anyOf" || key === "oneOf")
      defineOwn(out, key, this.schemaList(value, at, depth));
    else if (key === "items" || key === "additionalItems") this.arrayItems(site, key);
    else if (!this.classicOnly(site, key)) {
      if (key === "format") this.sawFormat = true;
      this.keep(site, key);
    }
  }

  /**
   * Array-form `items` is 2020-12's `prefixItems`, and `additionalItems` beside it is `items`; `additionalItems`
   * without it had no effect (Validation draft-07 §6.4.2).
   */
  private arrayItems(site: Site, key: "items" | "additionalItems"): void {
    const { node, pointer, depth, out } = site;
    const value = node[key];
    const at = childPointer(pointer, key);
    const arrayForm = Array.isArray(own(node, "items"));
    if (key === "items" && !arrayForm) defineOwn(out, key, this.schema(value, at, depth + 1));
    else if (key === "items") {
      this.note(at, "items-array-to-prefixItems", "array-form items → prefixItems");
      if ((value as unknown[]).length > 0) defineOwn(out, "prefixItems", this.schemaList(value, at, depth));
    } else if (arrayForm) {
      this.note(at, "additionalItems-to-items", "additionalItems beside array-form items → items");
      defineOwn(out, "items", this.schema(value, at, depth + 1));
    } else {
      const why = `additionalItems without array-form items had no effect in ${this.dialect.name}; dropped`;
      this.note(at, "ignored-keyword-dropped", why);
    }
  }

  /**
   * The keywords the classic drafts spell their own way: `dependencies` (Validation draft-07 §6.5.7) and draft-04's
   * boolean `exclusiveMaximum` / `exclusiveMinimum`. True when `key` was handled here.
   */
  private classicOnly(site: Site, key: string): boolean {
    const { node, pointer, depth, out } = site;
    const dialect = this.dialect;
    const value = node[key];
    const at = childPointer(pointer, key);
    if (key === "dependencies" && dialect.refAlone) {
      this.dependencies(value as JsonObject, at, depth, out);
      return true;
    }
    if (!dialect.exclusiveBooleans) return false;
    if (key === "maximum" || key === "minimum") {
      this.bound(site, key);
      return true;
    }
    if (key !== "exclusiveMaximum" && key !== "exclusiveMinimum") return false;
    if (typeof value !== "boolean") throw new Blocked(at, `"${key}" must be a boolean in draft-04`);
    const bound = key === "exclusiveMaximum" ? "maximum" : "minimum";
    if (!Object.hasOwn(node, bound)) {
      // The draft-04 meta-schema makes each depend on its bound: without it the schema is invalid.
      throw new Blocked(at, `"${key}" needs "${bound}" beside it in draft-04`);
    }
    return true; // translated with its bound
  }

  /** Draft-04 `maximum` beside `exclusiveMaximum: true` is 2020-12's `exclusiveMaximum` (Validation §6.2.3), etc. */
  private bound(site: Site, key: "maximum" | "minimum"): void {
    const { node, pointer, out } = site;
    const value = node[key];
    const problem = valueProblem(key, value);
    if (problem !== undefined) {
      throw new Blocked(childPointer(pointer, key), `"${key}" ${problem}: the schema is invalid in draft-04`);
    }
    const exclusiveKey = key === "maximum" ? "exclusiveMaximum" : "exclusiveMinimum";
    const exclusive = own(node, exclusiveKey);
    const at = childPointer(pointer, exclusiveKey);
    if (exclusive === true) {
      defineOwn(out, exclusiveKey, value);
      this.note(
        at,
        "exclusive-bound",
        `${key} ${String(value)} with ${exclusiveKey} true → ${exclusiveKey} ${String(value)}`,
      );
      return;
    }
    defineOwn(out, key, value);
    if (exclusive === false) this.note(at, "ignored-keyword-dropped", `${exclusiveKey} false is the default; dropped`);
  }

  /** Copies a keyword's value (data such as enum, const, default; assertion arguments; unknown keywords). */
  private keep(site: Site, key: string): void {
    const { node, pointer, depth, out } = site;
    const value = node[key];
    const at = childPointer(pointer, key);
    const name = this.dialect.name;
    const problem = valueProblem(key, value);
    if (problem !== undefined) {
      throw new Blocked(at, `"${key}" ${problem}: the schema is invalid in ${name} and 2020-12 alike`);
    }
    const own = draftValueProblem(name, key, value);
    if (own !== undefined) throw new Blocked(at, `"${key}" ${own}: the schema is invalid in ${name}`);
    defineOwn(out, key, clone(value, at, depth));
  }

  /**
   * A keyword 2020-12 defines and the dialect does not: ignored there, so it must not act after the upgrade. An
   * annotation whose value 2020-12 accepts is kept (it changes no verdict).
   */
  private newer(key: string, value: unknown, at: string, out: JsonObject): void {
    const name = this.dialect.name;
    if (ANNOTATIONS.has(key) && valueProblem(key, value) === undefined) {
      defineOwn(out, key, clone(value, at, 0));
      const rule = key === "deprecated" ? "deprecated-kept" : "annotation-kept";
      this.note(at, rule, `"${key}" is not a ${name} keyword; kept as the 2020-12 annotation`);
      return;
    }
    const effect = this.dialect.newer.get(key) as string;
    this.note(
      at,
      "newer-keyword-dropped",
      `"${key}" is not a ${name} keyword (ignored there); in 2020-12 it would ${effect}; dropped`,
    );
  }

  /** The 2020-12 reference the first pass planned for a `$ref` or a 2019-09 `$recursiveRef`. */
  private reference(node: JsonObject, at: string, out: JsonObject, appended: JsonObject[]): void {
    const plan = this.plan.refs.get(at);
    if (plan === undefined) throw new Error(`upgrade: no plan for the reference at "${at}"`);
    if (plan.change !== undefined) this.changes.push(plan.change);
    // A 2019-09 schema may hold `$ref` and `$recursiveRef` both: the second `$ref` goes into `allOf` (Core §10.2.1.1).
    const taken = plan.keyword === "$ref" && !at.endsWith("/$ref") && Object.hasOwn(node, "$ref");
    if (taken) appended.push({ $ref: plan.value });
    else defineOwn(out, plan.keyword, plan.value);
  }

  /** 2019-09 `$recursiveAnchor`: at a resource root, `true` becomes the `$dynamicAnchor` `$recursiveRef` looks for. */
  private recursiveAnchor(value: unknown, pointer: string, at: string, out: JsonObject): void {
    if (this.plan.recursiveAnchors.has(pointer)) {
      defineOwn(out, "$dynamicAnchor", RECURSIVE_ANCHOR);
      this.note(at, "recursiveAnchor-translated", `$recursiveAnchor true → $dynamicAnchor "${RECURSIVE_ANCHOR}"`);
    } else {
      const why = value === true ? "only a resource root's counts" : "false is the default";
      this.note(at, "ignored-keyword-dropped", `$recursiveAnchor ${String(value)}: ${why}; dropped`);
    }
  }

  /** In drafts 04–07 every keyword beside `$ref` is ignored (Core draft-07 §8.3); referenced definitions survive. */
  private refSchema(site: Site): JsonObject {
    const { node, pointer, out } = site;
    const name = this.dialect.name;
    let defsDone = false;
    for (const key of Object.keys(node)) {
      const at = childPointer(pointer, key);
      if (key === "$ref") {
        this.reference(node, at, out, []);
      } else if (key === "$schema" && pointer === "") {
        this.declared(site);
      } else if ((key === "definitions" || key === "$defs") && this.plan.keptDefinitions.has(at)) {
        if (!defsDone) this.defs(site, this.plan.keptDefinitions);
        defsDone = true;
      } else if (key === this.dialect.id) {
        this.note(at, "ref-sibling-dropped", idBesideRef(node, key, name));
      } else if (this.dialect.constraints.has(key)) {
        const what = `"${key}" beside $ref was ignored by ${name}, though it would constrain the instance; dropped`;
        this.note(at, "ref-sibling-constraint-dropped", what);
      } else {
        this.note(at, "ref-sibling-dropped", `"${key}" beside $ref was ignored by ${name}; dropped`);
      }
    }
    return out;
  }

  /**
   * Merges `$defs` (unknown to drafts 04–07, but a `$ref` can point into it) and `definitions` into one 2020-12
   * `$defs`, named as `definitionsNames` decides. Beside `$ref`, only the containers in `kept` are.
   */
  private defs(site: Site, kept: ReadonlySet<string> | undefined): void {
    const { node, pointer, depth, out } = site;
    const name = this.dialect.name;
    const merged: JsonObject = {};
    const defsAt = childPointer(pointer, "$defs");
    const definitionsAt = childPointer(pointer, "definitions");
    const defs = own(node, "$defs");
    const definitions = own(node, "definitions");
    let any = false;
    if (defs !== undefined && (kept === undefined || kept.has(defsAt))) {
      if (!isObject(defs)) {
        this.note(defsAt, "newer-keyword-dropped", `$defs is not a ${name} keyword and holds no schema; dropped`);
      } else {
        any = true;
        this.note(defsAt, "defs-kept", `$defs is not a ${name} keyword, but a $ref can point into it; kept`);
        for (const key of Object.keys(defs)) {
          const at = childPointer(defsAt, key);
          if (isDialectSchema(this.dialect, defs[key])) defineOwn(merged, key, this.schema(defs[key], at, depth + 1));
          else this.note(at, "newer-keyword-dropped", `$defs["${key}"] is not a schema, so nothing uses it; dropped`);
        }
      }
    }
    if (isObject(definitions) && (kept === undefined || kept.has(definitionsAt))) {
      any = true;
      const beside = kept === undefined ? "" : " (beside $ref, referenced)";
      this.note(definitionsAt, "definitions-to-defs", `definitions${beside} → $defs`);
      const names = definitionsNames(node);
      for (const key of Object.keys(definitions)) {
        const to = names.get(key) as string;
        const at = childPointer(definitionsAt, key);
        if (to !== key) {
          this.note(at, "definitions-renamed", `definitions["${key}"] → $defs["${to}"] ($defs has it)`);
        }
        defineOwn(merged, to, this.schema(definitions[key], at, depth + 1));
      }
    }
    if (any) defineOwn(out, "$defs", merged);
  }

  /** `$schema` of the dialect: 2020-12's at a resource root (Core §8.1.1), dropped elsewhere. */
  private declared(site: Site): void {
    const { node, pointer, out } = site;
    const value = node.$schema;
    const at = childPointer(pointer, "$schema");
    const root = pointer === "";
    const dialect = this.dialect;
    if (typeof value !== "string" || !dialect.declared.test(value)) {
      throw new Blocked(at, `$schema ${JSON.stringify(value)} is not ${dialect.name}`);
    }
    const id = own(node, dialect.id);
    if (root || (typeof id === "string" && splitFragment(id).document !== "")) {
      defineOwn(out, "$schema", URI_2020_12);
      this.note(at, "schema-dialect", `$schema ${dialect.name} → ${URI_2020_12}`);
    } else {
      this.note(at, "ignored-keyword-dropped", "$schema in a subschema that is not a resource root; dropped");
    }
  }

  private id(id: string, at: string, out: JsonObject): void {
    const name = this.dialect.id;
    const { document, fragment } = splitFragment(id);
    if (document === "" && fragment?.startsWith("/")) {
      // The scan refused a "#/pointer" $id that a $ref could read two ways (RFC 3986 §5.2.2 ignores a base fragment).
      this.note(at, "id-pointer-dropped", `${name} "${id}" only restates a location and changes no base URI; dropped`);
    } else if (fragment !== undefined && fragment !== "") {
      defineOwn(out, "$anchor", fragment);
      this.note(at, "id-fragment-to-anchor", `${name} "${id}" → $anchor "${fragment}"`);
    } else if (document === "") {
      this.note(at, "ignored-keyword-dropped", `${name} "${id}" names the current base URI; dropped`);
    } else {
      defineOwn(out, "$id", document);
      if (name === "id") this.note(at, "id-to-$id", `id "${id}" → $id "${document}"`);
      else if (fragment === "") this.note(at, "id-empty-fragment-removed", `$id "${id}" → "${document}"`);
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
 * Why dropping an `$id` beside `$ref` is exact: drafts 04–07 ignore it, so the `$ref` resolves against the
 * enclosing base URI before and after. A `$ref` with a relative path then depends on the retrieval URI (of
 * a root), which tools that honour the `$id` anyway would have taken from the `$id`: say so.
 */
function idBesideRef(node: JsonObject, key: string, dialect: string): string {
  const ref = own(node, "$ref") as string;
  const dropped = `"${key}" beside $ref was ignored by ${dialect} (Core draft-07 §8.3); dropped`;
  if (splitFragment(ref).document === "" || hasScheme(ref)) return dropped;
  return `${dropped}: $ref "${ref}" resolves against the enclosing base (a root's retrieval URI), not this ${key}`;
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
