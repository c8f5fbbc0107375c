/**
 * Explicit draft-07 → 2020-12 migration. The library never reinterprets a draft-07 schema on its own
 * (it is `unsupported_capability`); this returns a new 2020-12 schema with the same meaning and the
 * list of changes, or refuses, naming the construct that blocks an exact translation. The README
 * ("Draft-07, explicitly") lists the guarantees and the change rules.
 */
import { hasScheme } from "../engine/uri.js";
import { Blocked, type UpgradeChange } from "./upgrade-draft07-common.js";
import { DocumentPlan, inDocument, scan } from "./upgrade-draft07-scan.js";
import { Upgrader } from "./upgrade-draft07-translate.js";

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
      /** The construct that blocks it. */
      error: UpgradeBlocked;
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
      /** The construct that blocks it, and the document it is in. */
      error: UpgradeBlocked & {
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
 */
export function upgradeDraft07(schema: unknown): UpgradeResult {
  const result = upgradeAll([new DocumentPlan(LONE_DOCUMENT, LONE_DOCUMENT, schema)]);
  if (!result.ok) {
    const { class: errorClass, code, message, schemaPointer } = result.error;
    return { ok: false, error: { class: errorClass, code, message, schemaPointer } };
  }
  return { ok: true, value: result.value.get(LONE_DOCUMENT) as UpgradedDocument };
}

/**
 * Upgrades a set of draft-07 documents that reference each other, keyed by their retrieval URIs (absolute,
 * without fragment; an object or a Map, like `schemaRegistry`). Every document is translated as
 * {@link upgradeDraft07} would, and a `$ref` from one into another — by its key or its root `$id` — is
 * rewritten to the location's 2020-12 spelling (`base.json#/definitions/x` → `base.json#/$defs/x`). The
 * result maps each key to its upgraded document, ready to be registered under the same key; a refusal names
 * the document and the pointer in it. Throws a `TypeError` for a key that is not an absolute URI.
 */
export function upgradeDraft07Documents(
  documents: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>,
): UpgradeDocumentsResult {
  const entries: [unknown, unknown][] =
    documents instanceof Map
      ? [...documents.entries()]
      : Object.keys(documents).map((key) => [key, (documents as Record<string, unknown>)[key]]);
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
  return upgradeAll(plans);
}

function upgradeAll(plans: readonly DocumentPlan[]): UpgradeDocumentsResult {
  try {
    for (const plan of plans) inDocument(plan, () => Upgrader.checkRoot(plan.root));
    scan(plans);
    const out = new Map<string, UpgradedDocument>();
    for (const plan of plans)
      out.set(
        plan.key,
        inDocument(plan, () => new Upgrader(plan).document()),
      );
    return { ok: true, value: out };
  } catch (error) {
    if (!(error instanceof Blocked)) throw error;
    return {
      ok: false,
      error: {
        class: "unsupported_capability",
        code: "upgrade_blocked",
        message: error.message,
        schemaPointer: error.pointer,
        document: error.document ?? "",
      },
    };
  }
}
