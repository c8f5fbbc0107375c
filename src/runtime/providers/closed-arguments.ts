/**
 * Closed arguments (docs/guide/admission.md "Closed arguments"): an input schema with every object closed where
 * closing it is a narrowing that refuses no property the schema declares. It is the providers' narrowing of
 * `closed-objects` (the rewriting walk, which leaves an object open under `not`, `if`, `oneOf` or a bounded
 * `contains`, and a definition a reference reaches from there) on a profile with no other rule, with `declaredOnly`
 * (rules/declared.ts): an object is also left open where `additionalProperties: false` would refuse a property
 * declared beside it, and a map or a free-form object below the root is not closed. Arguments the published schema
 * accepts and this one refuses carry a property the schema does not declare.
 */

import { defaultLimits } from "../../engine/limits.js";
import { noBudgets, noLimits, noStructureRules, noValueRules } from "./profiles/parts.js";
import type { ProviderProfile } from "./profiles/profile.js";
import { WalkLimit } from "./translation/ref-graph.js";
import { walk } from "./walk.js";

/** An object schema closed arguments left open, and why. */
export interface OpenObject {
  /** Its JSON Pointer in the input schema. */
  readonly pointer: string;
  /** Why closing it would refuse a declared property, or is not a narrowing. */
  readonly reason: string;
}

/** What closing a tool's arguments did: the objects closed and those left open, with pointers. */
export interface ClosedArgumentsReport {
  /** The JSON Pointers of the object schemas closed, in schema order. */
  readonly closed: readonly string[];
  /** The object schemas left open, each with why. */
  readonly open: readonly OpenObject[];
}

/** The closed schema and its report; no schema when the walk hit a bound (nothing is then closed). */
export interface ClosedArguments {
  readonly schema?: unknown;
  readonly report: ClosedArgumentsReport;
}

/** A profile with one rule, `closed-objects`; everything else passes as it is. */
const CLOSING: ProviderProfile = Object.freeze({
  id: "closed-arguments@2026-12",
  name: "closed-arguments",
  version: "2026-12",
  provider: "backplane",
  format: "openai-function",
  strict: false,
  keywords: "any",
  structure: Object.freeze({ ...noStructureRules, closedObjects: true }),
  values: noValueRules,
  limits: noLimits,
  budgets: noBudgets,
  toolName: Object.freeze({ character: /^.$/su, maxLength: Number.MAX_SAFE_INTEGER }),
});

/** The object schema a `closed-objects` pointer (`…/additionalProperties`) is about. */
function objectOf(pointer: string): string {
  return pointer.replace(/\/additionalProperties$/, "");
}

/** The walk's refusal as the report words it: the rule's own reason, or where the walk would not narrow. */
function openReason(message: string): string {
  if (message.startsWith("kept open:")) return message;
  const polarity = /\(not narrowed: (.*)\)$/.exec(message);
  if (polarity !== null) return `kept open: ${polarity[1] as string} (closing it would not be a narrowing)`;
  return "kept open: its required names a property it does not declare";
}

/** Closes the arguments of an input schema (2020-12, as admission compiled it), within the schema limits. */
export function closeArguments(
  schema: unknown,
  limits: { readonly maxSchemaDepth?: number; readonly maxSchemaNodes?: number } = {},
): ClosedArguments {
  const maxDepth = limits.maxSchemaDepth ?? defaultLimits.maxSchemaDepth;
  const maxNodes = limits.maxSchemaNodes ?? defaultLimits.maxSchemaNodes;
  try {
    const walked = walk(schema, CLOSING, {
      field: "inputSchema",
      widen: false,
      narrow: true,
      encode: false,
      formatAssertion: false,
      contentAssertion: false,
      maxDepth,
      maxNodes,
      declaredOnly: true,
    });
    const closed = walked.changes.filter((c) => c.rule === "closed-objects").map((c) => objectOf(c.pointer));
    const open = walked.problems
      .filter((p) => p.rule === "closed-objects")
      .map((p) => ({ pointer: objectOf(p.pointer), reason: openReason(p.message) }));
    return { schema: walked.schema, report: { closed, open } };
  } catch (e) {
    if (!(e instanceof WalkLimit)) throw e;
    return { report: { closed: [], open: [{ pointer: "", reason: `not closed: ${e.message}` }] } };
  }
}
