/**
 * Which fields of a tool definition changed between two versions, as JSON Pointers (RFC 6901) into the descriptor:
 * for `inputSchema` and `outputSchema` the pointers of the changed subschemas, for every other field the deepest
 * pointer at which the two versions differ. Pointers only, never values, so the list can be shown anywhere.
 */

import { LimitError, SchemaError, errorMessage } from "../../engine/errors.js";
import type { ErrorCode } from "../errors/codes.js";
import { isObject } from "../../engine/json/json.js";
import type { Limits } from "../../engine/limits.js";
import { canonicalLimits, canonicalText } from "./canonical-json.js";
import { child, pointerOf, type Path } from "./path.js";
import { schemaParts } from "./schema-parts.js";
import { reviewedPart } from "./tool-identity.js";

const SCHEMA_FIELDS: ReadonlySet<string> = new Set(["inputSchema", "outputSchema"]);

/** A member one side does not have. */
const ABSENT = Symbol("absent");

interface Task {
  readonly kind: "value" | "schema";
  readonly before: unknown;
  readonly after: unknown;
  readonly path: Path;
}

/**
 * The fields that differ between two versions of one tool definition, as a sorted list (by UTF-16 code units) of
 * JSON Pointers into the descriptor, with `~` and `/` escaped; empty exactly when the two canonical forms are equal.
 * Each version is a canonical text (from `canonicalTool`) or a descriptor; only the model-facing part counts, so
 * `_meta`, `revision` and `backend` never appear.
 *
 * - `inputSchema` and `outputSchema` are compared subschema by subschema, over the 2020-12 subschema positions and
 *   draft-07's (`definitions`, array-form `items`, `additionalItems`, `dependencies`): a subschema is reported when
 *   it exists in one version only, or when one of its own keywords that holds no subschema differs. So a new
 *   property `x` gives `/inputSchema/properties/x`, a changed nested `description` gives the pointer of the
 *   subschema it describes, and a changed `required` list gives `/inputSchema` (the subschema whose keyword it is,
 *   never `/inputSchema/required`): every pointer under a schema field names a subschema. An empty container
 *   (`properties: {}`, `allOf: []`) that appears or disappears is reported at the subschema that holds it.
 * - Every other field is reported at the deepest pointer at which the versions differ: objects member by member,
 *   arrays item by item when their lengths agree, else the array itself. A renamed tool gives `/name`.
 *
 * The answer holds no value of either version; its pointers do hold member names (property names, `$defs` names),
 * which the server chose, so it is a diagnostic for the host like any other that quotes a schema.
 *
 * Throws as `canonicalTool` does, with the same `limits`, and `not_json` for a text that is not JSON.
 */
export function changedFields(before: unknown, after: unknown, limits?: Partial<Limits>): string[] {
  const checked = canonicalLimits(limits);
  const a = definition(before, checked);
  const b = definition(after, checked);
  const same = (x: unknown, y: unknown): boolean => canonicalText(x, checked) === canonicalText(y, checked);
  const changed = new Set<string>();
  const tasks: Task[] = [];
  const comparison: Comparison = { tasks, changed, same };
  for (const field of union(Object.keys(a), Object.keys(b))) {
    tasks.push({
      kind: SCHEMA_FIELDS.has(field) ? "schema" : "value",
      before: member(a, field),
      after: member(b, field),
      path: child(undefined, field),
    });
  }
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    const { before: x, after: y, path } = task;
    if (x === ABSENT || y === ABSENT) changed.add(pointerOf(path));
    else if (task.kind === "value") compareValues(x, y, path, comparison);
    else if (isObject(x) && isObject(y)) compareSchemas(x, y, path, comparison);
    else if (!same(x, y)) changed.add(pointerOf(path));
  }
  return [...changed].sort();
}

/** What a host reviews of a version, as plain JSON data (parsed from its canonical text). */
function definition(version: unknown, limits: Readonly<Limits>): Record<string, unknown> {
  let tool = version;
  if (typeof version === "string") {
    // A text takes at least as many UTF-8 bytes as UTF-16 code units: a long one fails before it is parsed.
    if (version.length > limits.maxSchemaBytes) throw new LimitError("maxSchemaBytes", limits.maxSchemaBytes);
    try {
      tool = JSON.parse(version);
    } catch (e) {
      const message = `a tool definition's canonical text is not JSON: ${errorMessage(e)}`;
      throw new SchemaError<ErrorCode<"identity">>({ class: "validation", code: "not_json", message });
    }
  }
  return JSON.parse(canonicalText(reviewedPart(tool), limits)) as Record<string, unknown>;
}

/** What one comparison accumulates: the work left, the pointers found, and when two values are the same JSON. */
interface Comparison {
  readonly tasks: Task[];
  readonly changed: Set<string>;
  readonly same: (x: unknown, y: unknown) => boolean;
}

/** The deepest pointers at which two values of a field differ. */
function compareValues(x: unknown, y: unknown, path: Path, { tasks, changed }: Comparison): void {
  if (isObject(x) && isObject(y)) {
    for (const name of union(Object.keys(x), Object.keys(y))) {
      tasks.push({ kind: "value", before: member(x, name), after: member(y, name), path: child(path, name) });
    }
  } else if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
    x.forEach((item: unknown, i) =>
      tasks.push({ kind: "value", before: item, after: y[i], path: child(path, `${i}`) }),
    );
  } else if (x !== y) {
    // Here at least one side is a scalar, or the two are arrays of different lengths or containers of two kinds.
    changed.add(pointerOf(path));
  }
}

/** Reports the subschema at `path` when its own keywords differ, and queues its subschemas. */
function compareSchemas(
  x: Readonly<Record<string, unknown>>,
  y: Readonly<Record<string, unknown>>,
  path: Path,
  { tasks, changed, same }: Comparison,
): void {
  const px = schemaParts(x);
  const py = schemaParts(y);
  let own = false;
  for (const at of union(px.keywords.keys(), py.keywords.keys())) {
    const vx = px.keywords.has(at) ? px.keywords.get(at) : ABSENT;
    const vy = py.keywords.has(at) ? py.keywords.get(at) : ABSENT;
    if (vx === ABSENT || vy === ABSENT || !same(vx, vy)) own = true;
  }
  // A container on one side only is reported through its members; an empty one has none to report it.
  for (const [keyword, { empty }] of px.containers) if (empty && !py.containers.has(keyword)) own = true;
  for (const [keyword, { empty }] of py.containers) if (empty && !px.containers.has(keyword)) own = true;
  if (own) changed.add(pointerOf(path));
  for (const at of union(px.subschemas.keys(), py.subschemas.keys())) {
    const sx = px.subschemas.get(at);
    const sy = py.subschemas.get(at);
    let to = path;
    for (const token of (sx ?? sy)?.tokens ?? []) to = child(to, token);
    const before = sx === undefined ? ABSENT : sx.schema;
    const after = sy === undefined ? ABSENT : sy.schema;
    tasks.push({ kind: "schema", before, after, path: to });
  }
}

/** The own member of a plain JSON object, or `ABSENT`. */
function member(object: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : ABSENT;
}

/** Two lists of names as one, each name once. */
function union(x: Iterable<string>, y: Iterable<string>): Set<string> {
  const names = new Set(x);
  for (const name of y) names.add(name);
  return names;
}
