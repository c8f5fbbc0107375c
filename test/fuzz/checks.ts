/**
 * The fuzz properties as plain functions that report problems instead of throwing, so `node --test` files
 * and `scripts/fuzz.mjs` share one definition:
 *  (a) compile throws nothing but `SchemaError`, and for a valid generated schema only an `execution_failure`
 *      (a limit); isValid/validate/annotations throw nothing but an `execution_failure` `SchemaError`, and
 *      annotations of a valid instance only when the output path itself (every branch evaluated, which the boolean
 *      path may skip) exceeds the limits: then there is no complete list to return;
 *  (b) `isValid(i) === validate(i, { output }).valid` for every format, and every invalid non-flag result
 *      carries at least one unit with an `error` string;
 *  (c) the schema and the instance are never mutated (both are deep-frozen, and compared as JSON after);
 *  (d) `annotations(i)` is `[]` for an invalid instance.
 */

import { compile, SchemaError } from "../../src/index.js";
import type { OutputUnit } from "../../src/index.js";
import { deepFreeze, type Case, type Json } from "./arbitraries.js";

export type ProblemKind = "unexpected_exception" | "output_disagreement" | "mutation" | "annotations";

export interface Problem {
  kind: ProblemKind;
  detail: string;
  instance?: Json;
}

/** Base URI for generated schemas (their embedded resource `tree` resolves against it). */
export const BASE_URI = "https://fuzz.test/case/root";

export const FORMATS = ["flag", "basic", "detailed", "verbose"] as const;

export function isLimitFailure(e: unknown): boolean {
  return e instanceof SchemaError && e.class === "execution_failure";
}

function describe(e: unknown): string {
  if (e instanceof SchemaError) return `SchemaError ${e.class}/${e.code}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return `non-Error thrown: ${String(e)}`;
}

/** Whether one evaluation on the output path, counted on its own, hits a limit. */
function outputPathExceedsLimits(validator: ReturnType<typeof compile>, instance: Json): boolean {
  try {
    validator.count(instance, true);
    return false;
  } catch (e) {
    return isLimitFailure(e);
  }
}

function hasErrorUnit(unit: OutputUnit): boolean {
  if (typeof unit.error === "string" && unit.error.length > 0) return true;
  return (unit.errors ?? []).some(hasErrorUnit);
}

export interface Verdicts {
  /** Compiled: a verdict (or "limit") per instance; not compiled: the reason. */
  compiled: boolean;
  verdicts: (boolean | "limit")[];
  /** Valid instances whose annotations hit a limit because the output path's evaluation exceeds the limits. */
  annotationLimits: number;
}

/** Runs (a)-(d) on one generated case; deep-freezes the case. Returns the problems and our verdicts. */
export function checkCase(c: Case, baseUri = BASE_URI): { problems: Problem[]; result: Verdicts } {
  const problems: Problem[] = [];
  const schemaBefore = JSON.stringify(c.schema);
  const instancesBefore = c.instances.map((i) => JSON.stringify(i));
  deepFreeze(c.schema);
  c.instances.forEach((i) => deepFreeze(i));
  const result: Verdicts = { compiled: false, verdicts: [], annotationLimits: 0 };

  let validator;
  try {
    validator = compile(c.schema, { baseUri });
  } catch (e) {
    if (!isLimitFailure(e)) problems.push({ kind: "unexpected_exception", detail: `compile: ${describe(e)}` });
    return { problems, result };
  }
  result.compiled = true;

  c.instances.forEach((instance) => {
    let valid: boolean;
    try {
      valid = validator.isValid(instance);
    } catch (e) {
      if (!isLimitFailure(e))
        problems.push({ kind: "unexpected_exception", detail: `isValid: ${describe(e)}`, instance });
      result.verdicts.push("limit");
      return;
    }
    result.verdicts.push(valid);
    for (const output of FORMATS) {
      try {
        const unit = validator.validate(instance, { output });
        if (unit.valid !== valid) {
          problems.push({
            kind: "output_disagreement",
            detail: `isValid ${valid} but ${output} output says ${unit.valid}`,
            instance,
          });
        } else if (!valid && output !== "flag" && !hasErrorUnit(unit as OutputUnit)) {
          problems.push({
            kind: "output_disagreement",
            detail: `invalid ${output} output carries no unit with an error message`,
            instance,
          });
        }
      } catch (e) {
        problems.push({
          kind: isLimitFailure(e) ? "output_disagreement" : "unexpected_exception",
          detail: `validate(${output}): ${describe(e)}`,
          instance,
        });
      }
    }
    try {
      const annotations = validator.annotations(instance);
      if (!Array.isArray(annotations))
        problems.push({ kind: "annotations", detail: "annotations() did not return an array", instance });
      else if (!valid && annotations.length !== 0) {
        problems.push({
          kind: "annotations",
          detail: `invalid instance has ${annotations.length} annotations`,
          instance,
        });
      }
    } catch (e) {
      if (isLimitFailure(e) && valid && outputPathExceedsLimits(validator, instance)) {
        result.annotationLimits++;
        return;
      }
      problems.push({
        kind: isLimitFailure(e) ? "annotations" : "unexpected_exception",
        detail: `annotations: ${describe(e)}`,
        instance,
      });
    }
  });

  if (JSON.stringify(c.schema) !== schemaBefore) problems.push({ kind: "mutation", detail: "the schema changed" });
  c.instances.forEach((instance, k) => {
    if (JSON.stringify(instance) !== instancesBefore[k])
      problems.push({ kind: "mutation", detail: "the instance changed", instance });
  });
  return { problems, result };
}

/** One line per problem, with the case, for assertion messages and the fuzz report. */
export function formatProblems(c: Case, problems: readonly Problem[]): string {
  const lines = problems.map(
    (p) => `${p.kind}: ${p.detail}${p.instance === undefined ? "" : ` (instance ${JSON.stringify(p.instance)})`}`,
  );
  return `${lines.join("\n")}\nschema: ${JSON.stringify(c.schema)}`;
}
