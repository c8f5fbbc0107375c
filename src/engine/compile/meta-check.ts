/**
 * Every document a compile reaches is checked against its meta-schema (the 2020-12 meta-schemas are built in, a
 * custom one comes from the registry or loader), so `{ "type": "strin" }` or `{ "minLength": -1 }` is a compile
 * error. Meta-schema validators are compiled once per dialect and kept.
 */

import type { CompileOptions } from "./compile-options.js";
import type { DialectDefinition } from "./dialect.js";
import type { Limits } from "../limits.js";
import type { OutputUnit } from "../output/output.js";
import type { MetaCheck } from "./resource-index.js";

/** Schema depth is bounded by `maxSchemaDepth` before a document is checked; its JSON nesting is about twice that. */
const META_LIMITS: Partial<Limits> = { maxInstanceDepth: 1_000, maxReferenceDepth: 2_000, maxEvaluationDepth: 4_000 };

const META_BASE_URI = "urn:backplane-agent-runtime:meta";

/** What the check needs of a compiled meta-schema (a `Validator`). */
interface MetaValidator {
  isValid(document: unknown): boolean;
  validate(document: unknown): { readonly errors?: readonly OutputUnit[] };
}

/** Compiles the wrapper `{ $ref: metaSchema }` (its root needs no meta-schema check of its own). */
export type MetaCompile = (wrapper: unknown, options: CompileOptions) => MetaValidator;

const cached = new WeakMap<DialectDefinition, Map<string, MetaValidator>>();

/** The check a compilation runs on each new resource; the dialect's own meta-schema validator is kept. */
export function metaCheckFor(dialect: DialectDefinition, options: CompileOptions, compile: MetaCompile): MetaCheck {
  return (document, metaSchema) => {
    let cache = cached.get(dialect);
    if (cache === undefined) cached.set(dialect, (cache = new Map()));
    let meta = metaSchema === dialect.metaSchema ? cache.get(metaSchema) : undefined;
    if (meta === undefined) {
      meta = compile(
        { $ref: metaSchema },
        {
          schemaRegistry: options.schemaRegistry,
          schemaLoader: options.schemaLoader,
          limits: META_LIMITS,
          baseUri: META_BASE_URI,
        },
      );
      if (metaSchema === dialect.metaSchema) cache.set(metaSchema, meta);
    }
    if (meta.isValid(document)) return undefined;
    const best = deepestError(meta.validate(document).errors ?? []);
    return { pointer: best?.instanceLocation ?? "", message: best?.error ?? "does not match its meta-schema" };
  };
}

/** The most specific error: the first at the deepest instance location. */
function deepestError(errors: readonly OutputUnit[]): OutputUnit | undefined {
  let best: OutputUnit | undefined;
  for (const e of errors) {
    if (best === undefined || e.instanceLocation.length > best.instanceLocation.length) best = e;
  }
  return best;
}
