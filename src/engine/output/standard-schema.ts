/**
 * Standard Schema v1 (https://standardschema.dev) and its Standard JSON Schema extension for a compiled
 * validator. The interfaces below are structural copies of `@standard-schema/spec` 1.1.0 (the spec asks
 * implementers to copy them rather than depend on the package), so the library has no dependency on it.
 * No Node-only API: this runs in browsers and edge workers.
 */

import { defineOwn } from "../json/json.js";
import { appendPointer } from "../json/pointer.js";

/** The vendor name reported in `"~standard".vendor`. */
const STANDARD_SCHEMA_VENDOR = "backplane-agent-runtime";

/** A Standard Schema issue: `StandardSchemaV1.Issue`. */
export interface StandardIssue {
  /** The keyword's one-sentence message. */
  readonly message: string;
  /** The keys from the root to the offending value (array indices as numbers); `[]` for the root. */
  readonly path?:
    | ReadonlyArray<
        | PropertyKey
        | {
            /** A path key given as an object, as Standard Schema allows. */
            readonly key: PropertyKey;
          }
      >
    | undefined;
}

/** A Standard Schema success: `StandardSchemaV1.SuccessResult`. */
export interface StandardSuccess<Output> {
  /** The very value that was validated (never coerced or copied). */
  readonly value: Output;
  /** Always absent on success. */
  readonly issues?: undefined;
}

/** A Standard Schema failure: `StandardSchemaV1.FailureResult`, with at least one issue. */
export interface StandardFailure {
  /** One issue per failing keyword of the basic output. */
  readonly issues: ReadonlyArray<StandardIssue>;
}

/** What `"~standard".validate` returns: `StandardSchemaV1.Result`. */
export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

/** `StandardJSONSchemaV1.Options`. */
export interface StandardJsonSchemaOptions {
  /** The JSON Schema dialect wanted; only `"draft-2020-12"` is supported, any other throws. */
  readonly target: string;
  /** Vendor-specific options; none are read. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** `StandardJSONSchemaV1.Converter`. */
export interface StandardJsonSchemaConverter {
  /** A fresh copy of the compiled schema as a JSON object (`true` → `{}`, `false` → `{ not: {} }`). */
  readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  /** The same as `input`: validation never transforms the value. */
  readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
}

/**
 * The `"~standard"` object: satisfies both `StandardSchemaV1.Props<Input, Output>` and
 * `StandardJSONSchemaV1.Props<Input, Output>`.
 */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The Standard Schema version: 1. */
  readonly version: 1;
  /** `"backplane-agent-runtime"`. */
  readonly vendor: string;
  /**
   * Validates synchronously without coercing: `{ value }` (the very value) or `{ issues }`. Throws the engine's
   * `LimitError` when a limit is hit, since that is no verdict about the value.
   */
  readonly validate: (
    value: unknown,
    options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
  ) => StandardResult<Output>;
  /** The Standard JSON Schema converter: the schema itself, for the `draft-2020-12` target. */
  readonly jsonSchema: StandardJsonSchemaConverter;
  /** Type-level only (never present at run time): the input and output types, for inference. */
  readonly types?:
    | {
        /** The type a valid input has. */
        readonly input: Input;
        /** The type of the validated value (the input's). */
        readonly output: Output;
      }
    | undefined;
}

/** What `standardSchemaOf` needs from a validator: the engine's `Validator` has both members. */
export interface StandardSchemaSource {
  validate(instance: unknown): { valid: boolean; errors?: readonly { instanceLocation: string; error?: string }[] };
  readonly schema: unknown;
}

const cache = new WeakMap<object, StandardSchemaProps>();

/**
 * The `"~standard"` object for `validator`. The same object is returned for the same validator.
 * `validate` never coerces: on success `value` is the very value passed in. An evaluation that hits a
 * limit throws the engine's `LimitError` (an execution failure is not a verdict about the value).
 */
export function standardSchemaOf<T = unknown>(validator: StandardSchemaSource): StandardSchemaProps<T, T> {
  const known = cache.get(validator);
  if (known !== undefined) return known as StandardSchemaProps<T, T>;
  const toJsonSchema = (options: StandardJsonSchemaOptions): Record<string, unknown> =>
    jsonSchemaFor(validator.schema, options);
  const props: StandardSchemaProps<T, T> = Object.freeze({
    version: 1 as const,
    vendor: STANDARD_SCHEMA_VENDOR,
    validate(value: unknown): StandardResult<T> {
      const result = validator.validate(value);
      if (result.valid) return { value: value as T };
      const errors = result.errors ?? [];
      const issues: StandardIssue[] = errors.map((unit) => ({
        message: unit.error ?? "is invalid",
        path: pathOf(value, unit.instanceLocation),
      }));
      // A failure must carry at least one issue, or consumers read it as success.
      if (issues.length === 0) issues.push({ message: "value does not match the schema", path: [] });
      return { issues };
    },
    jsonSchema: Object.freeze({ input: toJsonSchema, output: toJsonSchema }),
  });
  cache.set(validator, props);
  return props;
}

/**
 * Decodes a JSON Pointer (RFC 6901) instance location into Standard Schema path keys: a segment is
 * a number when the value it indexes is an array and the segment is an array index of it.
 */
export function pathOf(instance: unknown, pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  const text = pointer.startsWith("#") ? safeDecode(pointer.slice(1)) : pointer;
  if (text === "") return [];
  const segments = text
    .slice(text.startsWith("/") ? 1 : 0)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const path: PropertyKey[] = [];
  let current: unknown = instance;
  for (const segment of segments) {
    if (Array.isArray(current) && /^(?:0|[1-9][0-9]*)$/.test(segment) && Number(segment) < current.length) {
      const index = Number(segment);
      path.push(index);
      current = current[index];
    } else {
      path.push(segment);
      current = isRecord(current) && Object.hasOwn(current, segment) ? current[segment] : undefined;
    }
  }
  return path;
}

function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema as a fresh JSON object for the requested target (only draft 2020-12 is supported). */
function jsonSchemaFor(schema: unknown, options: StandardJsonSchemaOptions): Record<string, unknown> {
  const target = options?.target;
  if (target !== "draft-2020-12") {
    throw new Error(
      `${STANDARD_SCHEMA_VENDOR}: JSON Schema target ${JSON.stringify(target)} is not supported; ` +
        `only "draft-2020-12" is`,
    );
  }
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  const copy = copyJson(schema, new Set<object>(), "");
  if (!isRecord(copy)) throw new Error(`${STANDARD_SCHEMA_VENDOR}: the schema is not a JSON object or boolean`);
  return copy;
}

/** A deep copy of JSON data (own enumerable string keys), so callers cannot alter the compiled schema. */
function copyJson(value: unknown, seen: Set<object>, at: string): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (seen.has(value)) throw new Error(`${STANDARD_SCHEMA_VENDOR}: the schema has a cycle at "${at}"`);
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item, i) => copyJson(item, seen, `${at}/${i}`));
  } else {
    const obj: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copyJson((value as Record<string, unknown>)[key], seen, appendPointer(at, key));
      defineOwn(obj, key, item);
    }
    out = obj;
  }
  seen.delete(value);
  return out;
}
