/**
 * The explicit dialect options of every entry point that compiles (docs/guide/older-dialects.md): a schema declaring
 * an older dialect is `unsupported_capability` unless the host asks for `legacyDialects: "upgrade"` (or, for draft-07
 * alone, `draft07: "upgrade"`), which translates it exactly first — with every registry or loader document the
 * compile reaches that declares an older dialect, as one set. Never implicit.
 */

import { DEFAULT_BASE_URI, type CompileOptions as EngineOptions } from "../../../engine/compile/compile-options.js";
import { expecting, type OptionCheck } from "../../../engine/options.js";
import type { Limits } from "../../../engine/limits.js";
import { checkJson } from "../../../engine/json/host-json.js";
import { BoundaryError } from "../../errors/boundary-error.js";
import { err, ok, type Result } from "../../errors/result.js";
import { declaredLegacyDialect, legacyDialectOf, type LegacyDialect, type SourceDialect } from "./dialects.js";
import { DIALECT_2020_12 } from "./dialects.js";
import { reachable, type Reached } from "./reach.js";
import { DocumentPlan } from "./scan.js";
import { upgradeAll, type UpgradeChange, type UpgradeDocumentsResult, type UpgradedDocument } from "./upgrade.js";

/** What to do with a schema declaring draft-07: refuse it (the default) or translate it exactly. */
export type Draft07Mode = "reject" | "upgrade";

/** What to do with a schema declaring draft-04, draft-06, draft-07 or 2019-09: refuse it, or translate it exactly. */
export type LegacyDialectsMode = "refuse" | "upgrade";

/** The dialect options an entry point takes. */
export type DialectOptions = {
  /**
   * A schema (or a registry or loader document it reaches) declaring draft-04, draft-06, draft-07 or 2019-09:
   * `"refuse"` leaves it `unsupported_capability` / `dialect_unsupported`; `"upgrade"` translates it exactly into
   * 2020-12 before compiling (docs/guide/older-dialects.md), or refuses it as `upgrade_blocked` naming what blocks an
   * exact translation.
   */
  legacyDialects?: LegacyDialectsMode;
  /** The same choice for draft-07 alone (`"reject"` | `"upgrade"`); when given, it decides for draft-07. */
  draft07?: Draft07Mode;
};

/** The option checks of `DialectOptions`, added to an entry point's table. */
export const dialectOptionChecks: readonly [string, OptionCheck][] = [
  ["legacyDialects", expecting((v) => v === "refuse" || v === "upgrade", '"refuse" or "upgrade"')],
  ["draft07", expecting((v) => v === "reject" || v === "upgrade", '"reject" or "upgrade"')],
];

/**
 * The options of `compile` (docs/reference/options.md): the engine's, and the explicit upgrade of older dialects.
 * They fail closed: an unknown name or a malformed value throws a `SchemaError` of class `validation`, code
 * `options_invalid`.
 */
export interface CompileOptions extends EngineOptions, DialectOptions {}

/** Whether the options translate a schema of `dialect`: `draft07`, when given, decides for draft-07. */
function upgrades(options: DialectOptions, dialect: LegacyDialect): boolean {
  if (dialect === "draft-07" && options.draft07 !== undefined) return options.draft07 === "upgrade";
  return options.legacyDialects === "upgrade";
}

/** Whether the options translate any older dialect at all. */
function upgradesAny(options: DialectOptions): boolean {
  return options.legacyDialects === "upgrade" || options.draft07 === "upgrade";
}

/** What to compile: the schema and options with every older document translated, and the root's changes. */
export interface Prepared {
  readonly schema: unknown;
  readonly options: EngineOptions;
  /** When the root was translated: what changed (pointers into the caller's schema). */
  readonly changes?: UpgradeChange[];
}

const ROOT = "";

/** Why the upgrade refused a set: the construct (or limit) and the key of its document. */
type SetRefusal = Extract<UpgradeDocumentsResult, { ok: false }>["error"];

/**
 * The schema and compile options to compile. With an upgrade asked for, a root declaring an older dialect and every
 * registry or loader document the compile can reach that declares one are translated as one set, within the schema
 * limits (each document, and all together, as one compile counts them); the translated documents replace theirs in
 * a new registry (loader documents are registered too, so the loader is asked once). A refusal is
 * `unsupported_capability` / `upgrade_blocked` with the pointer (`uri#pointer` in a document other than the root), or
 * `limit_exceeded`. Anything else is returned as given; what is not JSON data is left to the compiler, which names it.
 */
export function prepareLegacy(
  schema: unknown,
  options: EngineOptions,
  modes: DialectOptions,
  limits: Readonly<Limits>,
): Result<Prepared, BoundaryError> {
  // What is not JSON data within the limits is the compiler's to name; nothing here may call a host getter.
  if (!upgradesAny(modes) || !checkJson(schema, { bytes: limits.maxSchemaBytes }).ok) return ok({ schema, options });
  const allowed = (document: unknown): SourceDialect | undefined => {
    const dialect = declaredLegacyDialect(document);
    return dialect !== undefined && upgrades(modes, dialect.name as LegacyDialect) ? dialect : undefined;
  };
  const rootUri = options.baseUri ?? DEFAULT_BASE_URI;
  const { schemaRegistry: registry, schemaLoader: loader } = options;
  const reached: Reached[] =
    registry === undefined && loader === undefined
      ? []
      : reachable(schema, rootUri, {
          registry,
          loader,
          dialectOf: (document) => allowed(document) ?? DIALECT_2020_12,
          maxNodes: limits.maxSchemaNodes,
          maxBytes: limits.maxSchemaBytes,
        });
  const plans = documentPlans(schema, rootUri, reached, allowed);
  if (plans.length === 0 && !reached.some((r) => r.loaded)) return ok({ schema, options });
  const result = upgradeAll(plans, limits, limits);
  if (!result.ok) {
    // A document that is not JSON is left to the compiler, which names the offending pointer.
    if (result.error.code === "schema_not_json") return ok({ schema, options });
    return err(upgradeRefusal(result.error, plans));
  }
  return ok(withUpgraded(schema, options, reached, result.value));
}

/** One plan per document to translate: the root when it declares an upgraded dialect, then every reached one. */
function documentPlans(
  schema: unknown,
  rootUri: string,
  reached: readonly Reached[],
  allowed: (document: unknown) => SourceDialect | undefined,
): DocumentPlan[] {
  const plans: DocumentPlan[] = [];
  const rootDialect = allowed(schema);
  if (rootDialect !== undefined) plans.push(new DocumentPlan(ROOT, rootUri, schema, rootDialect));
  for (const r of reached) {
    const dialect = allowed(r.document);
    if (dialect !== undefined) plans.push(new DocumentPlan(r.key, r.uri, r.document, dialect));
  }
  return plans;
}

/** The boundary's error for a set the upgrade refused, its pointer `uri#pointer` in a document other than the root. */
function upgradeRefusal(e: SetRefusal, plans: readonly DocumentPlan[]): BoundaryError {
  const plan = plans.find((p) => p.key === e.document);
  const inRoot = e.document === ROOT;
  const schemaPointer = inRoot ? e.schemaPointer : `${plan?.uri ?? e.document}#${e.schemaPointer}`;
  const what = inRoot ? `the ${plan?.dialect.name} schema` : `the ${plan?.dialect.name} document "${e.document}"`;
  const blocked = e.code === "upgrade_blocked";
  return new BoundaryError({
    class: e.class,
    code: e.code,
    message: blocked ? `${what} cannot be translated to 2020-12 exactly: ${e.message}` : e.message,
    schemaPointer,
    ...(e.code !== "upgrade_blocked" && e.limit !== undefined ? { limit: e.limit } : {}),
  });
}

/**
 * What to compile once the set is translated: the root's translation, and (where documents were reached) a new
 * registry in which each translated document replaces its own and every loader document is registered.
 */
function withUpgraded(
  schema: unknown,
  options: EngineOptions,
  reached: readonly Reached[],
  upgraded: ReadonlyMap<string, UpgradedDocument>,
): Prepared {
  const root = upgraded.get(ROOT);
  if (reached.length === 0) return { schema: root?.schema, options, changes: root?.changes ?? [] };
  const registry = options.schemaRegistry;
  const documents = new Map<string, unknown>(
    registry instanceof Map ? registry : Object.entries(registry ?? {}).map(([k, v]) => [k, v] as const),
  );
  for (const r of reached) documents.set(r.key, upgraded.get(r.key)?.schema ?? r.document);
  const compileOptions = { ...options, schemaRegistry: documents };
  return root === undefined
    ? { schema, options: compileOptions }
    : { schema: root.schema, options: compileOptions, changes: root.changes };
}

/** The sentence a refused older schema's message ends with: it names the option that would translate it. */
export function dialectHint(code: string, message: string, modes: DialectOptions): string {
  if (code !== "dialect_unsupported") return "";
  const declared = /dialect "([^"]*)" is not supported/.exec(message)?.[1];
  const dialect = legacyDialectOf(declared);
  if (dialect === undefined) return "";
  const name = dialect.name as LegacyDialect;
  if (upgrades(modes, name)) return "";
  // Draft-07 names the option that came first (it decides for draft-07); the others the general one.
  const option = name === "draft-07" ? 'draft07: "upgrade"' : 'legacyDialects: "upgrade"';
  return ` (pass ${option} to translate a ${name} schema exactly)`;
}

/** The error with `dialectHint` appended to its message. */
export function withDialectHint(error: BoundaryError, modes: DialectOptions): BoundaryError {
  const hint = dialectHint(error.code, error.message, modes);
  if (hint === "") return error;
  return new BoundaryError({ ...error, message: error.message + hint });
}
