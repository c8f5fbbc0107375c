/**
 * Explicit draft-07 → 2020-12 migration. The library never reinterprets a draft-07 schema on its own
 * (it is `unsupported_capability`); this returns a new 2020-12 schema with the same meaning and the
 * list of changes, or refuses, naming the construct that blocks an exact translation.
 */
import { Blocked, MAX_DEPTH, scan, type ScanResult } from "./upgrade-draft07-scan.js";
import { childPointer, isObject, own, put, splitFragment, type JsonObject } from "./upgrade-draft07-uri.js";

/** `pointer` is a JSON Pointer (RFC 6901) into the original schema. */
export interface UpgradeChange {
  pointer: string;
  rule: string;
  message: string;
}

export type UpgradeResult =
  | { ok: true; value: { schema: unknown; changes: UpgradeChange[] } }
  | {
      ok: false;
      error: { class: "unsupported_capability"; code: "upgrade_blocked"; message: string; schemaPointer: string };
    };

const DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
/** Draft-07 keywords that hold exactly one subschema and keep their name. */
const SINGLE = new Set(["additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"]);

export function upgradeDraft07(schema: unknown): UpgradeResult {
  try {
    if (typeof schema === "boolean") return { ok: true, value: { schema, changes: [] } };
    if (!isObject(schema)) throw new Blocked("", "a draft-07 schema must be an object or a boolean");
    const declared = own(schema, "$schema");
    if (declared !== undefined && !(typeof declared === "string" && DRAFT_07.test(declared))) {
      throw new Blocked("/$schema", `$schema ${JSON.stringify(declared)} is not draft-07`);
    }
    const upgrader = new Upgrader(scan(schema));
    const out = upgrader.schema(schema, "", 0);
    if (upgrader.sawFormat) {
      upgrader.changes.unshift({
        pointer: "",
        rule: "format-annotation",
        message: "format is an annotation in 2020-12; draft-07 allowed validators to assert it",
      });
    }
    return { ok: true, value: { schema: out, changes: upgrader.changes } };
  } catch (error) {
    if (!(error instanceof Blocked)) throw error;
    return {
      ok: false,
      error: {
        class: "unsupported_capability",
        code: "upgrade_blocked",
        message: error.message,
        schemaPointer: error.pointer,
      },
    };
  }
}

class Upgrader {
  readonly changes: UpgradeChange[] = [];
  sawFormat = false;

  constructor(private readonly plan: ScanResult) {}

  private note(pointer: string, rule: string, message: string): void {
    this.changes.push({ pointer, rule, message });
  }

  /** Translates one live draft-07 subschema (already checked by the scan). */
  schema(node: unknown, pointer: string, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Blocked(pointer, `schema nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
    if (!isObject(node)) return node; // a boolean schema
    if (Object.hasOwn(node, "$ref")) return this.refSchema(node, pointer, depth);
    const out: JsonObject = {};
    const items = own(node, "items");
    for (const key of Object.keys(node)) {
      const value = node[key];
      const at = childPointer(pointer, key);
      if (SINGLE.has(key)) {
        put(out, key, this.schema(value, at, depth + 1));
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
          this.note(at, "definitions-to-defs", "definitions → $defs");
          put(out, "$defs", this.schemaMap(value, at, depth));
          break;
        case "properties":
        case "patternProperties":
          put(out, key, this.schemaMap(value, at, depth));
          break;
        case "allOf":
        case "anyOf":
        case "oneOf":
          put(out, key, this.schemaList(value, at, depth));
          break;
        case "dependencies":
          this.dependencies(value as JsonObject, at, depth, out);
          break;
        case "items":
          if (!Array.isArray(value)) {
            put(out, key, this.schema(value, at, depth + 1));
            break;
          }
          this.note(at, "items-array-to-prefixItems", "array-form items → prefixItems");
          if (value.length > 0) put(out, "prefixItems", this.schemaList(value, at, depth));
          break;
        case "additionalItems":
          if (Array.isArray(items)) {
            this.note(at, "additionalItems-to-items", "additionalItems beside array-form items → items");
            put(out, "items", this.schema(value, at, depth + 1));
          } else {
            this.note(
              at,
              "ignored-keyword-dropped",
              "additionalItems without array-form items had no effect in draft-07; dropped",
            );
          }
          break;
        case "format":
          this.sawFormat = true;
          put(out, key, value);
          break;
        default:
          put(out, key, clone(value, at, depth)); // data (enum, const, default, examples) and assertion arguments
      }
    }
    return out;
  }

  /** In draft-07 every keyword beside `$ref` is ignored; only `definitions` something points into survive. */
  private refSchema(node: JsonObject, pointer: string, depth: number): JsonObject {
    const out: JsonObject = {};
    for (const key of Object.keys(node)) {
      const at = childPointer(pointer, key);
      if (key === "$ref") {
        const plan = this.plan.refs.get(at);
        if (plan === undefined) throw new Error(`upgrade-draft07: no plan for the $ref at "${at}"`);
        put(out, key, plan.value);
        if (plan.change !== undefined) this.changes.push(plan.change);
      } else if (key === "$schema" && pointer === "") {
        this.dialect(node, node[key], at, true, out);
      } else if (key === "definitions" && this.plan.keptDefinitions.has(at)) {
        const id = own(node, "$id");
        if (typeof id === "string" && splitFragment(id).document !== "") {
          throw new Blocked(
            childPointer(pointer, "$id"),
            "$id beside $ref was ignored by draft-07 but would change the base URI of the kept definitions in 2020-12",
          );
        }
        this.note(at, "definitions-to-defs", "definitions beside $ref are referenced; kept as $defs");
        put(out, "$defs", this.schemaMap(node[key], at, depth));
      } else {
        this.note(at, "ref-sibling-dropped", `"${key}" beside $ref was ignored by draft-07; dropped`);
      }
    }
    return out;
  }

  private dialect(node: JsonObject, value: unknown, at: string, root: boolean, out: JsonObject): void {
    if (typeof value !== "string" || !DRAFT_07.test(value)) {
      throw new Blocked(at, `$schema ${JSON.stringify(value)} is not draft-07`);
    }
    const id = own(node, "$id");
    if (root || (typeof id === "string" && splitFragment(id).document !== "")) {
      put(out, "$schema", DIALECT_2020_12);
      this.note(at, "schema-dialect", `$schema draft-07 → ${DIALECT_2020_12}`);
    } else {
      this.note(at, "ignored-keyword-dropped", "$schema in a subschema that is not a resource root; dropped");
    }
  }

  private id(id: string, at: string, out: JsonObject): void {
    const { document, fragment } = splitFragment(id);
    if (fragment !== undefined && fragment !== "") {
      put(out, "$anchor", fragment);
      this.note(at, "id-fragment-to-anchor", `$id "${id}" → $anchor "${fragment}"`);
    } else if (document === "") {
      this.note(at, "ignored-keyword-dropped", `$id "${id}" names the current base URI; dropped`);
    } else {
      put(out, "$id", document);
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
        if (!dep.every((p) => typeof p === "string"))
          throw new Blocked(depAt, "a property dependency must list strings");
        put(required, name, [...dep]);
        this.note(depAt, "dependencies-to-dependentRequired", `dependencies["${name}"] → dependentRequired`);
      } else {
        put(schemas, name, this.schema(dep, depAt, depth + 1));
        this.note(depAt, "dependencies-to-dependentSchemas", `dependencies["${name}"] → dependentSchemas`);
      }
    }
    if (Object.keys(required).length > 0) put(out, "dependentRequired", required);
    if (Object.keys(schemas).length > 0) put(out, "dependentSchemas", schemas);
    if (Object.keys(deps).length === 0) this.note(at, "ignored-keyword-dropped", "empty dependencies; dropped");
  }

  private schemaMap(value: unknown, at: string, depth: number): JsonObject {
    const map = value as JsonObject;
    const out: JsonObject = {};
    for (const name of Object.keys(map)) put(out, name, this.schema(map[name], childPointer(at, name), depth + 1));
    return out;
  }

  private schemaList(value: unknown, at: string, depth: number): unknown[] {
    return (value as unknown[]).map((child, i) => this.schema(child, childPointer(at, i), depth + 1));
  }
}

/** Deep-copies JSON data so the result shares nothing with the (possibly frozen) input. */
function clone(value: unknown, at: string, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Blocked(at, `value nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
  if (Array.isArray(value)) return value.map((item) => clone(item, at, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) put(out, key, clone(value[key], at, depth + 1));
  return out;
}
