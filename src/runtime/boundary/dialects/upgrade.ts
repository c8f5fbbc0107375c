/**
 * Explicit migration of older dialects (draft-04, draft-06, draft-07, 2019-09) to 2020-12. The library never
 * reinterprets an older schema on its own (it is `unsupported_capability`); these functions return new 2020-12
 * schemas with the same meaning and the list of changes, or refuse, naming the construct that blocks an exact
 * translation. docs/guide/older-dialects.md lists the guarantees and the change rules.
 */
import { errorMessage, isInstance } from "../../../engine/errors.js";
import { checkJson } from "../../../engine/json/host-json.js";
import { defaultLimits, resolveLimits, type Limits } from "../../../engine/limits.js";
import { hasScheme } from "../../../engine/json/uri.js";
import { compileOptionChecks, expecting, optionsProblem, type OptionTable } from "../../../engine/options.js";
import { isPlainObject } from "../../../engine/json/json.js";
import { Blocked, LimitHit, type UpgradeChange } from "./common.js";
import { LEGACY_DIALECTS, legacyDialectOf, type LegacyDialect, type SourceDialect } from "./dialects.js";
import { DocumentPlan, inDocument, scan } from "./scan.js";
import { Upgrader } from "./translate.js";
import type { BackplaneError } from "../../errors/backplane-error.js";

export type { UpgradeChange };
/** Why an older schema has no exact 2020-12 translation: an `unsupported_capability` error. */
export interface UpgradeBlocked extends BackplaneError<"upgrade_blocked"> {
  /** Always `unsupported_capability`: the schema is not wrong, it just cannot be translated exactly. */
  class: "unsupported_capability";
  /** Always `upgrade_blocked`. */
  code: "upgrade_blocked";
  /** Names the construct that blocks an exact translation, in one line. */
  message: string;
  /** JSON Pointer of the construct in the (original) schema that blocks an exact translation. */
  schemaPointer: string;
  /** The dialect the schema (or document) was read in. */
  dialect: LegacyDialect;
}

/**
 * Why the upgrade could not look at a value at all: it is not JSON data (`schema_not_json`: a function, a class
 * instance, an accessor property, a cycle, or a Proxy that threw), it exceeds a schema limit (`limit_exceeded`:
 * `maxSchemaBytes` for its JSON text, shared objects counted as their expansion, or `maxSchemaNodes` for its
 * subschemas, per document (the defaults of docs/reference/limits.md), or the set's budget when one is given), or
 * the upgrade itself failed (`validator_failed`, a bug).
 */
export interface UpgradeFailed extends BackplaneError<"schema_not_json" | "limit_exceeded" | "validator_failed"> {
  /** `validation` for a value that is not JSON data, `execution_failure` for a limit or a failure of the upgrade. */
  class: "validation" | "execution_failure";
  /** `schema_not_json`, `limit_exceeded` or `validator_failed`. */
  code: "schema_not_json" | "limit_exceeded" | "validator_failed";
  /** What was found, in one line. */
  message: string;
  /** Where in the schema, as a JSON Pointer. */
  schemaPointer: string;
  /** For `limit_exceeded`: which limit and its value. */
  limit?: {
    /** The limit's name, `maxSchemaBytes` or `maxSchemaNodes`. */
    name: string;
    /** Its value. */
    value: number;
  };
}

/** What `upgradeDraft07` and `upgradeLegacySchema` return: the upgraded schema and its changes, or why not. */
export type UpgradeResult =
  | {
      /** The schema was translated exactly. */
      ok: true;
      /** The translation. */
      value: {
        /** A new 2020-12 schema (the input is never modified). */
        schema: unknown;
        /** Every change made, with pointers into the original schema. */
        changes: UpgradeChange[];
      };
    }
  | {
      /** No exact translation exists. */
      ok: false;
      /** The construct that blocks it, or why the value could not be upgraded at all. */
      error: UpgradeBlocked | UpgradeFailed;
    };

/** One upgraded document: the 2020-12 schema and the changes made to it (pointers into the original). */
export interface UpgradedDocument {
  /** A new 2020-12 schema (the input is never modified). */
  schema: unknown;
  /** Every change made, with pointers into the original document. */
  changes: UpgradeChange[];
}

/** What the set upgrades return: every document upgraded, or the first construct that blocks one. */
export type UpgradeDocumentsResult =
  | {
      /** Every document was translated exactly. */
      ok: true;
      /** Each document's key (as given) mapped to its upgraded document. */
      value: Map<string, UpgradedDocument>;
    }
  | {
      /** A document has no exact translation. */
      ok: false;
      /** The construct that blocks it (or why a document could not be upgraded at all), and the document. */
      error: (UpgradeBlocked | UpgradeFailed) & {
        /** The key of the document the construct is in. */
        document: string;
      };
    };

/**
 * A budget for a whole set of documents: the most JSON bytes and subschemas all of them together may have. Without
 * one, only each document is bounded (by `limits`).
 */
export interface UpgradeBudget {
  /** The JSON bytes of all documents together. */
  maxSchemaBytes?: number;
  /** The subschemas of all documents together. */
  maxSchemaNodes?: number;
}

/** Options of `upgradeDraft07Documents`: the limits of each document, and a budget for the set. */
export interface UpgradeSetOptions {
  /** Each document's limits (`maxSchemaBytes`, `maxSchemaNodes`; docs/reference/limits.md); others keep defaults. */
  limits?: Partial<Limits>;
  /** A budget for all documents together (default: none; each document is bounded by `limits` alone). */
  budget?: UpgradeBudget;
}

/** Options of `upgradeLegacySchema` and `upgradeLegacyDocuments`. */
export interface UpgradeOptions extends UpgradeSetOptions {
  /**
   * The dialect of a schema that declares none in `$schema`. Without it, such a schema is 2020-12 (the library's
   * rule, docs/guide/engine.md "What it does") and is returned as it is: nothing is read as an older dialect unless
   * it says so or the caller does.
   */
  dialect?: LegacyDialect;
}

/** The retrieval URI of a lone schema (`upgradeLegacySchema`): relative references stay relative to it. */
const LONE_DOCUMENT = "https://legacy-upgrade.invalid/root-schema.json";

const budgetProblem = (v: unknown): string | undefined => {
  if (!isPlainObject(v)) return "must be a plain object ({ maxSchemaBytes?, maxSchemaNodes? })";
  for (const name of Object.keys(v)) {
    if (name !== "maxSchemaBytes" && name !== "maxSchemaNodes") return `has the unknown limit ${JSON.stringify(name)}`;
    const value = v[name];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0))
      return `has ${name}, which is not a non-negative integer`;
  }
  return undefined;
};

const setOptionChecks: OptionTable = new Map([
  ["limits", compileOptionChecks.get("limits") as (v: unknown) => string | undefined],
  ["budget", budgetProblem],
]);
const legacyOptionChecks: OptionTable = new Map([
  ...setOptionChecks,
  ["dialect", expecting((v) => LEGACY_DIALECTS.has(v as LegacyDialect), [...LEGACY_DIALECTS.keys()].join(", "))],
]);

/** The checked options: each document's limits and the set's budget. Throws a `TypeError` for bad options. */
function boundsOf(options: unknown, table: OptionTable, what: string): { limits: Limits; budget: Budget } {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, table, what);
  } catch (e) {
    problem = `${what} options could not be read: ${errorMessage(e)}`;
  }
  if (problem !== undefined) throw new TypeError(problem);
  const given = (options ?? {}) as UpgradeOptions;
  const limits = resolveLimits(given.limits);
  const budget = {
    maxSchemaBytes: given.budget?.maxSchemaBytes ?? Infinity,
    maxSchemaNodes: given.budget?.maxSchemaNodes ?? Infinity,
  };
  return { limits, budget };
}

/** The most bytes and subschemas a whole set may have (`Infinity`: no budget). */
export interface Budget {
  readonly maxSchemaBytes: number;
  readonly maxSchemaNodes: number;
}

const DRAFT_07 = LEGACY_DIALECTS.get("draft-07") as SourceDialect;

/**
 * Translates one draft-07 schema into 2020-12 with the same verdict on every instance, or refuses.
 * A `$ref` into another document is kept as written; to rewrite references between draft-07 documents
 * (into `definitions`, which become `$defs`), upgrade them together with {@link upgradeDraft07Documents}.
 * A schema without `$schema` is read as draft-07; one declaring anything else is refused.
 * Never throws: a value that is not JSON data or exceeds the default schema limits is an {@link UpgradeFailed}.
 */
export function upgradeDraft07(schema: unknown): UpgradeResult {
  return upgradeOne(new DocumentPlan(LONE_DOCUMENT, LONE_DOCUMENT, schema, DRAFT_07), defaultLimits);
}

/**
 * Translates one schema of an older dialect — the one its `$schema` declares (draft-04, draft-06, draft-07 or
 * 2019-09), or `options.dialect` for a schema that declares none — into 2020-12 with the same verdict on every
 * instance, or refuses, naming what blocks an exact translation. Any other schema (2020-12, an unknown dialect) is
 * returned as it is, with no change. References into other documents are kept as written (see
 * {@link upgradeLegacyDocuments}). Throws a `TypeError` for options it cannot use; otherwise never throws.
 */
export function upgradeLegacySchema(schema: unknown, options?: UpgradeOptions): UpgradeResult {
  const { limits } = boundsOf(options, legacyOptionChecks, "upgradeLegacySchema");
  const dialect = dialectOf(schema, options?.dialect);
  if (dialect === undefined) return { ok: true, value: { schema, changes: [] } };
  return upgradeOne(new DocumentPlan(LONE_DOCUMENT, LONE_DOCUMENT, schema, dialect), limits);
}

/** One document upgraded alone, within `limits`. */
function upgradeOne(plan: DocumentPlan, limits: Readonly<Limits>): UpgradeResult {
  const result = upgradeAll([plan], limits, limits);
  if (!result.ok) {
    const { document: _document, ...error } = result.error;
    return { ok: false, error };
  }
  return { ok: true, value: result.value.get(plan.key) as UpgradedDocument };
}

/** The older dialect a schema is read in: the one `$schema` declares, else `fallback` when it declares none. */
function dialectOf(schema: unknown, fallback: LegacyDialect | undefined): SourceDialect | undefined {
  try {
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      return fallback === undefined ? undefined : LEGACY_DIALECTS.get(fallback);
    }
    if (Object.hasOwn(schema, "$schema")) return legacyDialectOf((schema as Record<string, unknown>)["$schema"]);
    return fallback === undefined ? undefined : LEGACY_DIALECTS.get(fallback);
  } catch {
    // Unreadable: upgrading it reports the value as not JSON.
    return fallback === undefined ? DRAFT_07 : LEGACY_DIALECTS.get(fallback);
  }
}

/**
 * Upgrades a set of draft-07 documents that reference each other, keyed by their retrieval URIs (absolute,
 * without fragment; an object or a Map, like `schemaRegistry`). Every document is translated as
 * {@link upgradeDraft07} would, and a `$ref` from one into another — by its key or its root `$id` — is
 * rewritten to the location's 2020-12 spelling (`base.json#/definitions/x` → `base.json#/$defs/x`). The
 * result maps each key to its upgraded document, ready to be registered under the same key; a refusal names
 * the document and the pointer in it. Each document is bounded by `options.limits` (default:
 * docs/reference/limits.md); the set as a whole only by `options.budget`, when given. Throws a `TypeError` for a key
 * that is not an absolute URI, for options it cannot use, or documents that cannot be read at all.
 */
export function upgradeDraft07Documents(
  documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
  options?: UpgradeSetOptions,
): UpgradeDocumentsResult {
  const { limits, budget } = boundsOf(options, setOptionChecks, "upgradeDraft07Documents");
  return upgradeAll(
    planned(documents, () => DRAFT_07),
    limits,
    budget,
  );
}

/**
 * Upgrades a set of documents that reference each other, keyed by their retrieval URIs (absolute, without fragment;
 * an object or a Map, like `schemaRegistry`), each in the older dialect its `$schema` declares (or
 * `options.dialect`, for one that declares none), as {@link upgradeLegacySchema} would; a document of any other
 * dialect is returned as it is. A `$ref` from one into another, by its key or its root identifier, is rewritten to
 * the location's 2020-12 spelling (`base.json#/definitions/x` → `base.json#/$defs/x`). The result maps each key to
 * its document, ready to be registered under the same key; a refusal names the document and the pointer in it. Each
 * document is bounded by `options.limits`; the set as a whole only by `options.budget`, when given. Throws a
 * `TypeError` for a key that is not an absolute URI, for options it cannot use, or documents that cannot be read.
 */
export function upgradeLegacyDocuments(
  documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
  options?: UpgradeOptions,
): UpgradeDocumentsResult {
  const { limits, budget } = boundsOf(options, legacyOptionChecks, "upgradeLegacyDocuments");
  const others = new Map<string, unknown>();
  const plans = planned(documents, (key, schema) => {
    const dialect = dialectOf(schema, options?.dialect);
    if (dialect === undefined) others.set(key, schema);
    return dialect;
  });
  const result = upgradeAll(plans, limits, budget);
  if (!result.ok || others.size === 0) return result;
  const out = new Map<string, UpgradedDocument>();
  for (const [key] of entriesOf(documents)) {
    const kept = others.has(key as string);
    out.set(
      key as string,
      kept ? { schema: others.get(key as string), changes: [] } : result.value.get(key as string)!,
    );
  }
  return { ok: true, value: out };
}

function entriesOf(documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>): [unknown, unknown][] {
  try {
    return documents instanceof Map
      ? [...documents.entries()]
      : Object.keys(documents).map((key) => [key, (documents as Record<string, unknown>)[key]]);
  } catch (e) {
    throw new TypeError(`the documents could not be read: ${errorMessage(e)}`, { cause: e });
  }
}

/** A plan for each document `dialectFor` gives a dialect, checking the keys. */
function planned(
  documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
  dialectFor: (key: string, schema: unknown) => SourceDialect | undefined,
): DocumentPlan[] {
  const seen = new Set<string>();
  const plans: DocumentPlan[] = [];
  for (const [key, schema] of entriesOf(documents)) {
    const uri = typeof key === "string" && key.endsWith("#") ? key.slice(0, -1) : key;
    if (typeof uri !== "string" || !hasScheme(uri) || uri.includes("#")) {
      throw new TypeError(`document key ${JSON.stringify(key)} is not an absolute URI without fragment`);
    }
    if (seen.has(uri)) throw new TypeError(`document key "${String(key)}" names the same document as another`);
    seen.add(uri);
    const dialect = dialectFor(key as string, schema);
    if (dialect !== undefined) plans.push(new DocumentPlan(key as string, uri, schema, dialect));
  }
  return plans;
}

/** Upgrades the planned documents as one set: each within `limits`, all together within `budget`. */
export function upgradeAll(
  plans: readonly DocumentPlan[],
  limits: Readonly<Limits>,
  budget: Budget,
): UpgradeDocumentsResult {
  try {
    // Before any walk: JSON data only (no getter runs, so every later read sees the same value), and its expansion
    // within maxSchemaBytes, measured without walking a shared object twice.
    let bytes = 0;
    for (const plan of plans) {
      const failed = notJson(plan, limits, budget.maxSchemaBytes, bytes);
      if (typeof failed !== "number") return { ok: false, error: failed };
      bytes += failed;
    }
    for (const plan of plans) inDocument(plan, () => Upgrader.checkRoot(plan.root, plan.dialect));
    scan(plans, limits.maxSchemaNodes, budget.maxSchemaNodes);
    const out = new Map<string, UpgradedDocument>();
    for (const plan of plans)
      out.set(
        plan.key,
        inDocument(plan, () => new Upgrader(plan).document()),
      );
    return { ok: true, value: out };
  } catch (error) {
    return { ok: false, error: refusal(error, plans, limits, budget) };
  }
}

/** The result's error for what the upgrade threw. */
function refusal(
  error: unknown,
  plans: readonly DocumentPlan[],
  limits: Readonly<Limits>,
  budget: Budget,
): Extract<UpgradeDocumentsResult, { ok: false }>["error"] {
  if (isInstance(error, Blocked)) {
    const document = error.document ?? "";
    const plan = plans.find((p) => p.key === document) ?? plans[0];
    const dialect = (plan?.dialect.name ?? "draft-07") as LegacyDialect;
    const e = { class: "unsupported_capability", code: "upgrade_blocked" } as const;
    return { ...e, message: error.message, schemaPointer: error.pointer, dialect, document };
  }
  if (isInstance(error, LimitHit)) {
    const set = error.bound === "budget";
    const value = set ? budget.maxSchemaNodes : limits.maxSchemaNodes;
    const what = set ? `the set's budget maxSchemaNodes (${value})` : `limit maxSchemaNodes (${value})`;
    const message = `${what} exceeded at schema "${error.pointer}"`;
    const e = { class: "execution_failure", code: "limit_exceeded" } as const;
    const limit = { name: "maxSchemaNodes", value };
    return { ...e, message, schemaPointer: error.pointer, limit, document: error.document ?? "" };
  }
  const e = { class: "execution_failure", code: "validator_failed" } as const;
  const message = `the upgrade failed: ${errorMessage(error)}`;
  return { ...e, message, schemaPointer: "", document: "" };
}

/** The document's JSON size, or why it is not JSON data within its limit and the rest of the set's budget. */
function notJson(
  plan: DocumentPlan,
  limits: Readonly<Limits>,
  budget: number,
  spent: number,
): number | Extract<UpgradeDocumentsResult, { ok: false }>["error"] {
  const set = budget - spent < limits.maxSchemaBytes;
  const found = checkJson(plan.root, { bytes: set ? budget - spent : limits.maxSchemaBytes });
  if (found.ok) return found.measure.bytes;
  const at = { schemaPointer: found.pointer, document: plan.key };
  if (found.bound !== undefined) {
    const value = set ? budget : limits.maxSchemaBytes;
    const what = set ? `the set's budget maxSchemaBytes (${value})` : `limit maxSchemaBytes (${value})`;
    const message = `${what} exceeded at schema "${found.pointer}"`;
    return {
      class: "execution_failure",
      code: "limit_exceeded",
      message,
      limit: { name: "maxSchemaBytes", value },
      ...at,
    };
  }
  const message = `schema is not JSON at "${found.pointer}": ${found.message}`;
  return { class: "validation", code: "schema_not_json", message, ...at };
}
