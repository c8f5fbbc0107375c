/**
 * Whether a subschema accepts the instance `null`, decided from the keywords that can see a null (Validation §6.1.1
 * `type`, §6.1.2 `enum`, §6.1.3 `const`; Core §10.2 the in-place applicators and `$ref`); every other assertion
 * applies to one instance type only and passes a null (Validation §6). What an encoding of "optional" as "required
 * and nullable" needs to know: a null can stand for "absent" only where the original refuses null.
 */

import { jsonEqual, UNMETERED } from "../../../engine/json/json.js";
import { Draft, draftOf, type Child } from "./draft.js";
import { typeList } from "./merge.js";
import type { RefGraph } from "./ref-graph.js";

/** `true`: null is accepted; `false`: refused; `undefined`: the keywords do not say for certain. */
export type NullVerdict = boolean | undefined;

/** Schema values are bounded by admission's depth limit long before this. */
const EQUAL_DEPTH = 1_000;

/** Whether the subschema accepts `null` (references followed; a reference cycle leaves it undecided). */
export function acceptsNull(child: Child, graph: RefGraph): NullVerdict {
  return verdict(child, graph, new Set());
}

function verdict(child: Child, graph: RefGraph, following: ReadonlySet<string>): NullVerdict {
  const draft = draftOf(child);
  if (typeof draft === "boolean" || draft === undefined) return draft;
  const parts: NullVerdict[] = [];
  const type = draft.get("type");
  if (type !== undefined) {
    const types = type.kind === "value" ? typeList(type.value) : undefined;
    parts.push(types === undefined ? undefined : types.includes("null"));
  }
  if (draft.has("const")) {
    const entry = draft.get("const");
    parts.push(entry?.kind === "value" ? entry.value === null : undefined);
  }
  if (draft.has("enum")) {
    const values = draft.value("enum");
    parts.push(Array.isArray(values) ? values.some((v) => jsonEqual(v, null, EQUAL_DEPTH, UNMETERED)) : undefined);
  }
  const branches = (keyword: string) => draft.list(keyword)?.map((c) => verdict(c, graph, following));
  const all = branches("allOf");
  if (all !== undefined) parts.push(and(all));
  const any = branches("anyOf");
  if (any !== undefined) parts.push(or(any));
  const one = branches("oneOf");
  if (one !== undefined) parts.push(one.includes(undefined) ? undefined : one.filter((v) => v).length === 1);
  parts.push(negation(draft, graph, following), conditional(draft, graph, following));
  parts.push(reference(draft, graph, following));
  if (draft.has("$dynamicRef")) parts.push(undefined);
  return and(parts);
}

function subschema(draft: Draft, keyword: string): Child | undefined {
  const entry = draft.get(keyword);
  return entry?.kind === "schema" ? entry.child : undefined;
}

function negation(draft: Draft, graph: RefGraph, following: ReadonlySet<string>): NullVerdict {
  const not = subschema(draft, "not");
  if (not === undefined) return draft.has("not") ? undefined : true;
  const inner = verdict(not, graph, following);
  return inner === undefined ? undefined : !inner;
}

/** `if`/`then`/`else` (Core §10.2.2): the branch the `if` verdict on null selects. */
function conditional(draft: Draft, graph: RefGraph, following: ReadonlySet<string>): NullVerdict {
  const condition = subschema(draft, "if");
  if (condition === undefined) return true;
  const chosen = verdict(condition, graph, following);
  if (chosen === undefined) return undefined;
  const branch = subschema(draft, chosen ? "then" : "else");
  return branch === undefined ? true : verdict(branch, graph, following);
}

function reference(draft: Draft, graph: RefGraph, following: ReadonlySet<string>): NullVerdict {
  if (!draft.has("$ref")) return true;
  const target = graph.targetOf(draft.value("$ref"));
  if (target === undefined || following.has(target)) return undefined;
  return verdict({ value: graph.at(target), at: target }, graph, new Set([...following, target]));
}

/** All must accept: one refusal refuses, one unknown leaves it unknown. */
function and(values: readonly NullVerdict[]): NullVerdict {
  if (values.includes(false)) return false;
  return values.includes(undefined) ? undefined : true;
}

/** One must accept: one acceptance accepts, one unknown leaves it unknown. */
function or(values: readonly NullVerdict[]): NullVerdict {
  if (values.includes(true)) return true;
  return values.includes(undefined) ? undefined : false;
}
