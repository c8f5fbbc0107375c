/** The compiled `Validator`: the boolean fast path and the output path over one tree of schema nodes. */

import type { MessageRenderer } from "./output/error-text.js";
import { LimitError } from "./errors.js";
import type { Limits } from "./limits.js";
import { annotationsOptionChecks, checkOptions, validateOptionChecks } from "./options.js";
import { findNotJson, isJsonData, type NotJson } from "./json/json-data.js";
import { escapeToken } from "./json/pointer.js";
import {
  annotationsOf,
  basicOutput,
  notJsonFailure,
  render,
  rootResult,
  type Annotation,
  type FlagOutput,
  type InvalidOutput,
  type NodeResult,
  type OutputFormat,
  type OutputUnit,
  type ValidationOutput,
} from "./output/output.js";
import type { SchemaNode } from "./evaluate/node.js";
import { Run } from "./evaluate/run.js";
import { FastVerdict, newTally } from "./verdict/build.js";
import { type Tally, Verdict } from "./verdict/tally.js";
import { standardSchemaOf, type StandardSchemaProps } from "./output/standard-schema.js";

/** Options of `validate`: the output format (docs/guide/engine.md "Output formats"). */
export interface ValidateOptions {
  /** `"flag"`, `"basic"` (the default), `"detailed"` or `"verbose"`. */
  output?: OutputFormat;
}

/** `validate` options that ask for a format with units (basic, detailed, verbose). */
export interface UnitsOptions extends ValidateOptions {
  /** `"basic"` (the default), `"detailed"` or `"verbose"`. */
  output?: Exclude<OutputFormat, "flag">;
}

/** `annotations` takes no options yet; any name given is `options_invalid`. */
export interface AnnotationsOptions {
  readonly [name: string]: never;
}

/**
 * A compiled schema: immutable, reusable, safe to share across calls and concurrent async work. `isValid` is the
 * fast path; `validate` and `annotations` are views of one evaluation result (`evaluate`). `T` is the type the
 * caller says valid instances have (`compile<T>`): `isValid` narrows to it; nothing checks it against the schema.
 * Its methods are bound: `values.filter(validator.isValid)` and `const { validate } = validator` work.
 *
 * **Values that are not JSON data are never valid**, wherever they sit in the instance and whatever the schema says
 * of that place (`{}` and `true` included): a number that is not finite (`NaN`, `Infinity`), `undefined`, a bigint, a
 * symbol, a function, an object whose prototype is neither `Object.prototype` nor `null` (a `Date`, a `Map`, a class
 * instance), a hole in a sparse array, and an object that contains itself (a cycle). `isValid` answers `false`;
 * `validate` answers invalid with one error at the first such value's instance location (depth first), whose message
 * says it is not JSON data and what it is (`is not JSON data: the non-finite number NaN`); `annotations` answers `[]`;
 * Standard Schema (`"~standard".validate`) returns that issue with its path. The instance is looked through for them
 * only when the schema's keywords accept it (a refused instance is reported with the keywords' errors), every value
 * once per path to it and at most `maxInstanceNodes` values below the root: past that, a `LimitError`. Symbol-keyed
 * properties are not JSON members and are not looked at.
 */
export class Validator<T = unknown> {
  /** The boolean path's reusable counters, shared with every validator of the same limits (see `spareRun`). */
  private readonly spare: Run;
  /** The whole boolean path of a root that needs no evaluation (a leaf of pure assertions), or undefined. */
  private readonly direct: ((instance: unknown) => boolean) | undefined;
  /** The verdict fast path (`engine/verdict`), built on a later call; undefined where a dynamic scope is tracked. */
  private readonly fast: FastVerdict | undefined;

  /** @internal */
  constructor(
    private readonly root: SchemaNode,
    /** The limits in force (the defaults completed by the `limits` option). */
    readonly limits: Readonly<Limits>,
    private readonly tracksScope: boolean,
    /** The schema this validator was compiled from (the caller's value, unchanged). */
    readonly schema: unknown,
    /** The `messages` option: the host's renderer of failing keywords, for the output path. */
    private readonly messages: MessageRenderer | undefined = undefined,
  ) {
    this.spare = spareRun(limits, tracksScope);
    this.direct = root.direct(limits.maxEvaluationSteps);
    // A dynamic scope is the accounted path's: a subtree run there alone would start with none. A root answered whole
    // by `direct` has nothing left for a fast path to save.
    this.fast =
      tracksScope || this.direct !== undefined ? undefined : new FastVerdict(root, limits, spareTally(limits));
    // Bound, so a method passed on as a function works as ajv's does: `values.filter(validator.isValid)`. `isValid` is
    // a closure calling its body: closures made here share one feedback cell, so V8 inlines the call through any
    // validator's as it does a method's (a bound function costs a call more).
    this.isValid = (instance: unknown): instance is T => this.verdictOf(instance);
    this.validate = this.validate.bind(this) as Validator<T>["validate"];
    this.annotations = this.annotations.bind(this);
    this.evaluate = this.evaluate.bind(this);
    Object.freeze(this);
  }

  /** Standard Schema v1 and Standard JSON Schema (https://standardschema.dev); the same object on every access. */
  get "~standard"(): StandardSchemaProps {
    return standardSchemaOf(this);
  }

  /**
   * True when the instance is valid. Stops at the first failure; builds no strings or error objects. Throws a
   * `LimitError` when a limit is hit: an execution failure is never answered as `false`.
   */
  isValid(instance: unknown): instance is T {
    return this.verdictOf(instance);
  }

  /** @internal `isValid`'s body. */
  verdictOf(instance: unknown): instance is T {
    const direct = this.direct;
    const maxNodes = this.limits.maxInstanceNodes;
    if (direct !== undefined) {
      if (!direct(instance)) return false;
      // A string or a boolean is JSON data without a call.
      return typeof instance === "string" || typeof instance === "boolean" || isJsonData(instance, maxNodes);
    }
    const fast = this.fast;
    if (fast !== undefined) {
      const decided = fast.decide(instance);
      if (decided !== Verdict.UNKNOWN) return decided === Verdict.VALID;
    }
    return this.verdict(instance) && isJsonData(instance, maxNodes);
  }

  /**
   * @internal `isValid` of an instance its caller has already checked as JSON data within the instance limits, as the
   * boundary does (`checkJson` with the `maxInstance*`, `maxStringLength`, `maxArrayLength` and `maxObjectProperties`
   * bounds): the schema's verdict alone, without walking the instance again for the rule for values that are not JSON
   * data (docs/project/performance.md "One JSON walk per boundary pass").
   */
  isValidChecked(instance: unknown): boolean {
    const direct = this.direct;
    if (direct !== undefined) return direct(instance);
    const fast = this.fast;
    if (fast !== undefined) {
      const decided = fast.decide(instance, true);
      if (decided !== Verdict.UNKNOWN) return decided === Verdict.VALID;
    }
    return this.verdict(instance);
  }

  /**
   * @internal `evaluate` of an instance its caller has already checked as JSON data within the instance limits (see
   * `isValidChecked`): the instance is not looked through again.
   */
  evaluateChecked(instance: unknown): NodeResult {
    return this.evaluateData(instance, false, true);
  }

  /**
   * @internal The verdict fast path's answer alone: the verdict it proved, or undefined where it leaves the instance
   * to the accounted path (the differential test compares the two paths).
   */
  fastVerdict(instance: unknown): boolean | undefined {
    const decided = this.fast === undefined ? Verdict.UNKNOWN : this.fast.decideNow(instance);
    return decided === Verdict.UNKNOWN ? undefined : decided === Verdict.VALID;
  }

  /**
   * The schema's verdict on the accounted boolean path (a root without `direct`), before the rule for values that are
   * not JSON data.
   */
  private verdict(instance: unknown): boolean {
    let run = this.spare;
    if (run.active) run = new Run(this.limits, this.tracksScope);
    else run.reset();
    run.active = true;
    try {
      return this.root.test(instance, run, undefined);
    } catch (e) {
      throw stackGuard(e, this.limits);
    } finally {
      run.release();
      run.active = false;
    }
  }

  /**
   * Evaluates the instance into the one result tree every output format is a view of: node results holding
   * keyword results, with messages, typed `params`, annotations and child results. `keepAll` keeps units that
   * neither fail nor annotate (the verbose format). Throws a `LimitError` when a limit is hit.
   */
  evaluate(instance: unknown, keepAll = false): NodeResult {
    return this.evaluateData(instance, keepAll, false);
  }

  /** `evaluate`, told whether the instance is known to be JSON data (`isValid` said so): then not looked through. */
  private evaluateData(instance: unknown, keepAll: boolean, knownData: boolean): NodeResult {
    const result = rootResult();
    this.evaluateInto(instance, result, new Run(this.limits, this.tracksScope, keepAll, this.messages));
    const max = this.limits.maxInstanceNodes;
    if (result.valid && !knownData && !jsonData(instance, max)) {
      const found = findNotJson(instance, max) as NotJson;
      const location = found.path.map((token) => "/" + escapeToken(String(token))).join("");
      notJsonFailure(result, location, `is not JSON data: ${found.what}`);
    }
    return result;
  }

  /**
   * @internal The verdict and the steps one evaluation counted (docs/reference/limits.md "What one step is"), on the
   * boolean path or the output path. Tests assert how counted work grows with the instance.
   */
  count(instance: unknown, output = false): { valid: boolean; steps: number } {
    const run = new Run(this.limits, this.tracksScope);
    let valid: boolean;
    if (output) valid = this.evaluateInto(instance, rootResult(), run);
    else {
      try {
        valid = this.root.test(instance, run, undefined);
      } catch (e) {
        throw stackGuard(e, this.limits);
      }
    }
    return { valid: valid && isJsonData(instance, this.limits.maxInstanceNodes), steps: run.steps };
  }

  private evaluateInto(instance: unknown, result: NodeResult, run: Run): boolean {
    try {
      return this.root.evaluate(instance, run, undefined, result);
    } catch (e) {
      throw stackGuard(e, this.limits);
    }
  }

  /**
   * The output in one of the 2020-12 formats (default `"basic"`; docs/guide/engine.md "Output formats"). Throws a
   * `SchemaError` `options_invalid` for an unknown option or format, and a `LimitError` when the verdict itself hits a
   * limit.
   */
  validate(instance: unknown, options: ValidateOptions & { output: "flag" }): FlagOutput;
  validate(instance: unknown, options?: UnitsOptions): ValidationOutput;
  validate(instance: unknown, options?: ValidateOptions): ValidationOutput | FlagOutput;
  validate(instance: unknown, options?: ValidateOptions): ValidationOutput | FlagOutput {
    checkOptions(options, validateOptionChecks, "validate");
    // The boolean path first: it answers "flag", and a limit it hits is reported without building any output.
    return this.outputFor(instance, this.isValid(instance), options?.output ?? "basic");
  }

  /**
   * @internal The output of an instance whose boolean verdict (`isValid`'s) is already known: one evaluation on the
   * output path, so a caller that ran `isValid` first evaluates invalid input twice, not three times.
   */
  outputFor(instance: unknown, valid: boolean, format: OutputFormat = "basic"): ValidationOutput | FlagOutput {
    if (format === "flag") return { valid };
    let result: NodeResult;
    try {
      result = this.evaluateData(instance, format === "verbose", valid);
    } catch (e) {
      // The output path visits every branch the boolean path could skip, so it can need more steps.
      // The verdict stands; the output says why it is not itemised instead of failing.
      if (e instanceof LimitError) return truncatedOutput(valid, e);
      throw e;
    }
    return (format === "basic" ? basicOutput(result) : render(result, format)) as ValidationOutput;
  }

  /**
   * Every annotation of a valid instance (Core §7.7.1), in evaluation order; `[]` when the instance is invalid.
   * Throws a `SchemaError` `options_invalid` when any option is given, and a `LimitError` when a limit is hit.
   */
  annotations(instance: unknown, options?: AnnotationsOptions): Annotation[] {
    checkOptions(options, annotationsOptionChecks, "annotations");
    if (!this.isValid(instance)) return [];
    return annotationsOf(this.evaluateData(instance, false, true));
  }
}

/**
 * The boolean path's counters, reused from call to call by every validator with the same limits: taken only when
 * no evaluation is using them (a reentrant call, from a host getter or proxy, gets its own) and reset on every use,
 * so no state survives a call. Keyed weakly by the limits object (most validators share the frozen defaults).
 */
const spares = new WeakMap<Readonly<Limits>, [Run | undefined, Run | undefined]>();

function spareRun(limits: Readonly<Limits>, tracksScope: boolean): Run {
  let pair = spares.get(limits);
  if (pair === undefined) spares.set(limits, (pair = [undefined, undefined]));
  const at = tracksScope ? 1 : 0;
  return (pair[at] ??= new Run(limits, tracksScope));
}

/**
 * The verdict fast path's tally, shared as the boolean path's counters are (`spareRun`) by every validator with the
 * same limits: a call takes it only when no check is using it (a reentrant one, from a host getter, gets its own).
 */
const tallies = new WeakMap<Readonly<Limits>, Tally>();

function spareTally(limits: Readonly<Limits>): Tally {
  let tally = tallies.get(limits);
  if (tally === undefined) tallies.set(limits, (tally = newTally(limits)));
  return tally;
}

/** Output for a verdict the boolean path reached but whose full output would exceed a limit. */
function truncatedOutput(valid: boolean, limit: LimitError): ValidationOutput {
  if (valid) return { valid, keywordLocation: "", instanceLocation: "" };
  const error =
    "the instance is invalid; its output is not itemised because producing it exceeds " +
    `${limit.limit} (${limit.value})`;
  const unit: OutputUnit = { valid: false, keywordLocation: "", instanceLocation: "", error };
  return { valid, keywordLocation: "", instanceLocation: "", errors: [unit] } satisfies InvalidOutput;
}

/**
 * Whether every value of an instance is JSON data, on the output path: past `maxNodes` values, the limit is thrown
 * located at the value that passes it (the walk that locates it runs only then).
 */
function jsonData(instance: unknown, maxNodes: number): boolean {
  try {
    return isJsonData(instance, maxNodes);
  } catch (e) {
    if (!(e instanceof LimitError)) throw e;
    findNotJson(instance, maxNodes);
    throw e;
  }
}

/** A stack overflow is never let out: it becomes the limit that bounds evaluation depth. */
function stackGuard(e: unknown, limits: Readonly<Limits>): unknown {
  if (e instanceof RangeError && /call stack/i.test(e.message))
    return new LimitError("maxEvaluationDepth", limits.maxEvaluationDepth);
  return e;
}
