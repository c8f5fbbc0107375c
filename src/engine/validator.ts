/** `compile` and the compiled `Validator`: the boolean fast path and the output path over one tree. */

import { Compilation, type CompileOptions, type MetaCheck } from "./compiler.js";
import { Run } from "./context.js";
import type { DialectDefinition } from "./dialect.js";
import { LimitError } from "./errors.js";
import { resolveLimits, type Limits } from "./limits.js";
import type { SchemaNode } from "./node.js";
import { annotationsOptionChecks, checkOptions, compileOptionChecks, validateOptionChecks } from "./options.js";
import { standardSchemaOf, type StandardSchemaProps } from "./standard-schema.js";
import {
  annotationsOf,
  basicOutput,
  render,
  type Annotation,
  type NodeResult,
  type OutputFormat,
  type OutputUnit,
} from "./output.js";

export interface ValidateOptions {
  output?: OutputFormat;
}

/** `annotations` takes no options yet; any name given is `options_invalid`. */
export interface AnnotationsOptions {
  readonly [name: string]: never;
}

export interface BasicResult {
  valid: boolean;
  keywordLocation?: string;
  absoluteKeywordLocation?: string;
  instanceLocation?: string;
  errors?: OutputUnit[];
  annotations?: OutputUnit[];
}

export class Validator {
  /** @internal */
  constructor(
    private readonly root: SchemaNode,
    readonly limits: Readonly<Limits>,
    private readonly tracksScope: boolean,
    /** The schema this validator was compiled from (the caller's value, unchanged). */
    readonly schema: unknown,
  ) {
    Object.freeze(this);
  }

  /** Standard Schema v1 and Standard JSON Schema (https://standardschema.dev); the same object on every access. */
  get "~standard"(): StandardSchemaProps {
    return standardSchemaOf(this);
  }

  /** True when the instance is valid. Stops at the first failure; builds no strings or error objects. */
  isValid(instance: unknown): boolean {
    return this.run(instance, null, false).valid;
  }

  /** Evaluates the instance into the one result tree that every output format is a view of. */
  evaluate(instance: unknown, keepAll = false): NodeResult {
    const result = rootResult();
    this.run(instance, result, keepAll);
    return result;
  }

  /**
   * @internal The verdict and the steps one evaluation counted (README "Limits": what one step is), on the
   * boolean path or the output path. Tests assert how counted work grows with the instance.
   */
  count(instance: unknown, output = false): { valid: boolean; steps: number } {
    return this.run(instance, output ? rootResult() : null, false);
  }

  private run(instance: unknown, out: NodeResult | null, keepAll: boolean): { valid: boolean; steps: number } {
    const run = new Run(this.limits, this.tracksScope, keepAll);
    try {
      return { valid: this.root.check(instance, run, undefined, out), steps: run.steps };
    } catch (e) {
      throw stackGuard(e, this.limits);
    }
  }

  /** Output in one of the 2020-12 formats (default "basic"). */
  validate(instance: unknown, options?: ValidateOptions): OutputUnit {
    checkOptions(options, validateOptionChecks, "validate");
    // The boolean path first: it answers "flag", and a limit it hits is reported without building any output.
    return this.outputFor(instance, this.isValid(instance), options?.output ?? "basic");
  }

  /**
   * @internal The output of an instance whose boolean verdict is already known: one evaluation on the
   * output path, so a caller that ran `isValid` first evaluates invalid input twice, not three times.
   */
  outputFor(instance: unknown, valid: boolean, format: OutputFormat = "basic"): OutputUnit {
    if (format === "flag") return { valid } as OutputUnit;
    let result: NodeResult;
    try {
      result = this.evaluate(instance, format === "verbose");
    } catch (e) {
      // The output path visits every branch the boolean path could skip, so it can need more steps.
      // The verdict stands; the output says why it is not itemised instead of failing.
      if (e instanceof LimitError) return truncatedOutput(valid, e);
      throw e;
    }
    return (format === "basic" ? basicOutput(result) : render(result, format)) as OutputUnit;
  }

  /** Every annotation of a valid instance; [] when the instance is invalid. */
  annotations(instance: unknown, options?: AnnotationsOptions): Annotation[] {
    checkOptions(options, annotationsOptionChecks, "annotations");
    if (!this.isValid(instance)) return [];
    return annotationsOf(this.evaluate(instance));
  }
}

function rootResult(): NodeResult {
  return { keywordLocation: "", absoluteKeywordLocation: "", instanceLocation: "", valid: true, keywords: [] };
}

/** Output for a verdict the boolean path reached but whose full output would exceed a limit. */
function truncatedOutput(valid: boolean, limit: LimitError): OutputUnit {
  const unit: OutputUnit = { valid, keywordLocation: "", instanceLocation: "" };
  if (valid) return unit;
  const error =
    "the instance is invalid; its output is not itemised because producing it exceeds " +
    `${limit.limit} (${limit.value})`;
  unit.errors = [{ valid: false, keywordLocation: "", instanceLocation: "", error }];
  return unit;
}

/** A stack overflow is never let out: it becomes the limit that bounds evaluation depth. */
function stackGuard(e: unknown, limits: Readonly<Limits>): unknown {
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return new LimitError("maxEvaluationDepth", limits.maxEvaluationDepth);
  return e;
}

/** Schema depth is bounded by `maxSchemaDepth` before a document is checked; its JSON nesting is about twice that. */
const META_LIMITS: Partial<Limits> = { maxInstanceDepth: 1_000, maxReferenceDepth: 2_000, maxEvaluationDepth: 4_000 };

const metaValidators = new WeakMap<DialectDefinition, Map<string, Validator>>();

/** Compiles a schema with a dialect (the package root binds the 2020-12 dialect). */
export function compileWith(dialect: DialectDefinition, schema: unknown, options: CompileOptions = {}): Validator {
  return compileInternal(dialect, schema, options, true);
}

function compileInternal(
  dialect: DialectDefinition,
  schema: unknown,
  options: CompileOptions,
  checkRoot: boolean,
): Validator {
  checkOptions(options, compileOptionChecks, "compile");
  const limits = resolveLimits(options.limits);
  const compilation = new Compilation(dialect, options, limits, metaCheckFor(dialect, options), checkRoot);
  try {
    const root = compilation.node(compilation.addRoot(schema));
    return new Validator(root, limits, compilation.usesDynamicScope, schema);
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new LimitError("maxSchemaDepth", limits.maxSchemaDepth);
    }
    throw e;
  }
}

/** Validation of each document against its meta-schema, with validators cached per dialect. */
function metaCheckFor(dialect: DialectDefinition, options: CompileOptions): MetaCheck {
  return (document, metaSchema) => {
    let cache = metaValidators.get(dialect);
    if (cache === undefined) metaValidators.set(dialect, (cache = new Map()));
    let meta = metaSchema === dialect.metaSchema ? cache.get(metaSchema) : undefined;
    if (meta === undefined) {
      meta = compileInternal(
        dialect,
        { $ref: metaSchema },
        {
          schemaRegistry: options.schemaRegistry,
          schemaLoader: options.schemaLoader,
          limits: META_LIMITS,
          baseUri: "urn:backplane-agent-runtime:meta",
        },
        false,
      );
      if (metaSchema === dialect.metaSchema) cache.set(metaSchema, meta);
    }
    if (meta.isValid(document)) return undefined;
    const errors = meta.validate(document).errors ?? [];
    const best = pickError(errors);
    return { pointer: best?.instanceLocation ?? "", message: best?.error ?? "does not match its meta-schema" };
  };
}

/** The most specific error: the deepest instance location, preferring errors with their own message. */
function pickError(errors: OutputUnit[]): OutputUnit | undefined {
  let best: OutputUnit | undefined;
  for (const e of errors) {
    if (best === undefined || e.instanceLocation.length > best.instanceLocation.length) best = e;
  }
  return best;
}
