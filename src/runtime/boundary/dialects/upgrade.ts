/**
 * Explicit draft-07 → 2020-12 migration. The library never reinterprets a draft-07 schema on its own
 * (it is `unsupported_capability`); this returns a new 2020-12 schema with the same meaning and the
 * list of changes, or refuses, naming the construct that blocks an exact translation. The
 * guarantees and the change rules are in docs/guide/boundary.md "Draft-07, explicitly".
 */
import { errorMessage, isInstance } from "../../../engine/errors.js";
import { checkJson } from "../../../engine/json/host-json.js";
import { defaultLimits, type Limits } from "../../../engine/limits.js";
import { hasScheme } from "../../../engine/json/uri.js";
import { Blocked, LimitHit, type UpgradeChange } from "./common.js";
import { DocumentPlan, inDocument, scan } from "./scan.js";
import { Upgrader } from "./translate.js";

export type { UpgradeChange };

/** Why a draft-07 schema has no exact 2020-12 translation: an `unsupported_capability` error. */
export interface UpgradeBlocked {
  /** Always `unsupported_capability`: the schema is not wrong, it just cannot be translated exactly. */
  class: "unsupported_capability";
  /** Always `upgrade_blocked`. */
  code: "upgrade_blocked";
  /** Names the construct that blocks an exact translation, in one line. */
  message: string;
  /** JSON Pointer of the construct in the (original) schema that blocks an exact translation. */
  schemaPointer: string;
}

/**
 * Why `upgradeDraft07` could not look at a value at all: it is not JSON data (`schema_not_json`: a function, a class
 * instance, an accessor property, a cycle, or a Proxy that threw), it exceeds a schema limit (`limit_exceeded`:
 * `maxSchemaBytes` for its JSON text, shared objects counted as their expansion, or `maxSchemaNodes` for its
 * subschemas; the defaults of docs/reference/limits.md), or the upgrade itself failed (`validator_failed`, a bug).
 */
export interface UpgradeFailed {
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

/** What `upgradeDraft07` returns: the upgraded schema and its changes, or why it cannot be upgraded exactly. */
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

/** What `upgradeDraft07Documents` returns: every document upgraded, or the first construct that blocks one. */
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

/** Stands in for the unknown retrieval URI of a lone schema: relative references stay relative to it. */
const LONE_DOCUMENT = "https://draft07-upgrade.invalid/root-schema.json";

/**
 * Translates one draft-07 schema into 2020-12 with the same verdict on every instance, or refuses.
 * A `$ref` into another document is kept as written; to rewrite references between draft-07 documents
 * (into `definitions`, which become `$defs`), upgrade them together with {@link upgradeDraft07Documents}.
 * Never throws: a value that is not JSON data or exceeds the default schema limits is an {@link UpgradeFailed}.
 */
export function upgradeDraft07(schema: unknown): UpgradeResult {
  return upgradeDraft07Within(schema, defaultLimits);
}

/** `upgradeDraft07` within the given schema limits (the boundary's, so that it refuses what the compiler would). */
export function upgradeDraft07Within(schema: unknown, limits: Readonly<Limits>): UpgradeResult {
  const result = upgradeAll([new DocumentPlan(LONE_DOCUMENT, LONE_DOCUMENT, schema)], limits);
  if (!result.ok) {
    const { document: _document, ...error } = result.error;
    return { ok: false, error };
  }
  return { ok: true, value: result.value.get(LONE_DOCUMENT) as UpgradedDocument };
}

/**
 * Upgrades a set of draft-07 documents that reference each other, keyed by their retrieval URIs (absolute,
 * without fragment; an object or a Map, like `schemaRegistry`). Every document is translated as
 * {@link upgradeDraft07} would, and a `$ref` from one into another — by its key or its root `$id` — is
 * rewritten to the location's 2020-12 spelling (`base.json#/definitions/x` → `base.json#/$defs/x`). The
 * result maps each key to its upgraded document, ready to be registered under the same key; a refusal names
 * the document and the pointer in it. Throws a `TypeError` for a key that is not an absolute URI (or documents
 * that cannot be read at all); the documents
 * together are bounded by the default schema limits, as one compile's documents are.
 */
export function upgradeDraft07Documents(
  documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
): UpgradeDocumentsResult {
  let entries: [unknown, unknown][];
  try {
    entries =
      documents instanceof Map
        ? [...documents.entries()]
        : Object.keys(documents).map((key) => [key, (documents as Record<string, unknown>)[key]]);
  } catch (e) {
    throw new TypeError(`the documents could not be read: ${errorMessage(e)}`, { cause: e });
  }
  const seen = new Set<string>();
  const plans = entries.map(([key, schema]) => {
    const uri = typeof key === "string" && key.endsWith("#") ? key.slice(0, -1) : key;
    if (typeof uri !== "string" || !hasScheme(uri) || uri.includes("#")) {
      throw new TypeError(`document key ${JSON.stringify(key)} is not an absolute URI without fragment`);
    }
    if (seen.has(uri)) throw new TypeError(`document key "${String(key)}" names the same document as another`);
    seen.add(uri);
    return new DocumentPlan(key as string, uri, schema);
  });
  return upgradeAll(plans, defaultLimits);
}

function upgradeAll(plans: readonly DocumentPlan[], limits: Readonly<Limits>): UpgradeDocumentsResult {
  try {
    // Before any walk: JSON data only (no getter runs, so every later read sees the same value), and its expansion
    // within maxSchemaBytes, measured without walking a shared object twice.
    let bytes = 0;
    for (const plan of plans) {
      const failed = notJson(plan, limits.maxSchemaBytes - bytes, limits);
      if (typeof failed !== "number") return { ok: false, error: failed };
      bytes += failed;
    }
    for (const plan of plans) inDocument(plan, () => Upgrader.checkRoot(plan.root));
    scan(plans, limits.maxSchemaNodes);
    const out = new Map<string, UpgradedDocument>();
    for (const plan of plans)
      out.set(
        plan.key,
        inDocument(plan, () => new Upgrader(plan).document()),
      );
    return { ok: true, value: out };
  } catch (error) {
    if (isInstance(error, Blocked)) {
      const e = { class: "unsupported_capability", code: "upgrade_blocked" } as const;
      return {
        ok: false,
        error: { ...e, message: error.message, schemaPointer: error.pointer, document: error.document ?? "" },
      };
    }
    if (isInstance(error, LimitHit)) {
      const limit = { name: "maxSchemaNodes", value: limits.maxSchemaNodes };
      const message = `limit maxSchemaNodes (${limits.maxSchemaNodes}) exceeded at schema "${error.pointer}"`;
      const e = { class: "execution_failure", code: "limit_exceeded" } as const;
      return {
        ok: false,
        error: { ...e, message, schemaPointer: error.pointer, limit, document: error.document ?? "" },
      };
    }
    const e = { class: "execution_failure", code: "validator_failed" } as const;
    const message = `the draft-07 upgrade failed: ${errorMessage(error)}`;
    return { ok: false, error: { ...e, message, schemaPointer: "", document: "" } };
  }
}

/** The document's JSON size, or why it is not JSON data within `bytes` (the rest of maxSchemaBytes). */
function notJson(
  plan: DocumentPlan,
  bytes: number,
  limits: Readonly<Limits>,
): number | Extract<UpgradeDocumentsResult, { ok: false }>["error"] {
  const found = checkJson(plan.root, { bytes });
  if (found.ok) return found.measure.bytes;
  const at = { schemaPointer: found.pointer, document: plan.key };
  if (found.bound !== undefined) {
    const value = limits.maxSchemaBytes;
    const message = `limit maxSchemaBytes (${value}) exceeded at schema "${found.pointer}"`;
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
