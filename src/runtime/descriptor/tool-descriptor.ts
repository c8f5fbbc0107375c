/**
 * Tool descriptors (docs/guide/admission.md "What admission checks"): an MCP `Tool` plus the runtime's `revision` and
 * `backend`; the metadata rules admission checks; and the provider tool a model is shown, which is the descriptor's
 * MCP part unchanged, but for `_meta` (protocol metadata for clients, which admission keeps on the admitted tool).
 */

import { LimitError } from "../../engine/errors.js";
import { isObject, preview, defineOwn } from "../../engine/json/json.js";
import type { Limits } from "../../engine/limits.js";
import { BoundaryError } from "../errors/boundary-error.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import type { ErrorCode } from "../errors/codes.js";

/**
 * What a model request lists (MCP `tools/list` shape): every field of the descriptor, unchanged and with the same
 * values, except the runtime's `revision` and `backend` and MCP's `_meta`. `_meta` is protocol metadata for clients:
 * it is neither pinned nor scanned for hidden text, so it is never handed to a model (`AdmittedTool.meta` keeps it).
 */
export interface ProviderTool {
  /** The MCP tool name: 1–128 characters of `A–Z a–z 0–9 _ - .`, unique in its batch. */
  name: string;
  /** MCP `title`: a display name. */
  title?: string;
  /** MCP `description`: what the tool does, written for a model (a string when present). */
  description?: string;
  /** MCP `icons`. */
  icons?: unknown[];
  /**
   * The JSON Schema the arguments must satisfy (an object root): the very same object in the descriptor and in the
   * provider tool.
   */
  inputSchema: Record<string, unknown>;
  /** The JSON Schema a result's `structuredContent` must satisfy: the very same value in both. */
  outputSchema?: Record<string, unknown> | boolean;
  /** MCP `annotations` (hints such as `readOnlyHint`). */
  annotations?: Record<string, unknown>;
  /** MCP `execution` (e.g. `taskSupport`). */
  execution?: Record<string, unknown>;
  /** Fields a later MCP version adds. */
  [field: string]: unknown;
}

/**
 * A tool descriptor: an MCP `Tool` plus the runtime's own `revision` and `backend`, that is the provider tool a model
 * is shown (`ProviderTool`) with those two and MCP's `_meta`. Every other field (and any a later MCP version adds) is
 * carried to the provider tool unchanged.
 */
export interface ToolDescriptor extends ProviderTool {
  /** The runtime's opaque, non-empty version of this tool; not shown to a model. */
  revision: string;
  /**
   * The backend that runs the tool (a string): one of the batch's `backends` when the batch names them, otherwise
   * not checked and may be absent. Not shown to a model.
   */
  backend?: string;
  /** MCP `_meta`: protocol metadata for clients, not shown to a model. */
  _meta?: Record<string, unknown>;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Whether a string follows the MCP tool-name rules: 1–128 characters of `A–Z a–z 0–9 _ - .`. */
export function isToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

function describeTool(value: unknown): { name: string; revision: string } {
  const name = isObject(value) && typeof value["name"] === "string" ? value["name"] : "";
  const revision = isObject(value) && typeof value["revision"] === "string" ? value["revision"] : "";
  return { name, revision };
}

/** The MCP tool-name rule a descriptor's own name breaks (`tool_name_invalid`), or undefined. */
export function nameError(tool: unknown, index: number): CatalogError | undefined {
  const name = isObject(tool) ? tool["name"] : undefined;
  if (typeof name === "string" && TOOL_NAME.test(name)) return undefined;
  const message = `tool ${index} has an invalid name ${preview(name)}: 1–128 characters of A–Z a–z 0–9 _ - .`;
  return catalogError("validation", "tool_name_invalid", message, describeTool(tool));
}

/** How MCP spells a field some APIs spell otherwise (`input_schema` is Anthropic's, `parameters` OpenAI's). */
const SPELLINGS: ReadonlyMap<string, string> = new Map([
  ["input_schema", "inputSchema"],
  ["inputschema", "inputSchema"],
  ["input-schema", "inputSchema"],
  ["parameters", "inputSchema"],
  ["output_schema", "outputSchema"],
  ["outputschema", "outputSchema"],
  ["output-schema", "outputSchema"],
]);

/**
 * Metadata rules of a descriptor whose name is valid (`nameError`): an opaque non-empty revision; a string
 * description; a backend among `backends` when the batch names them, otherwise a string when present; an input
 * schema under its MCP name; annotations and execution that are objects, `taskSupport` one of MCP's values.
 */
export function metadataError(
  tool: Record<string, unknown> & { name: string },
  backends: ReadonlySet<string> | undefined,
  seen: ReadonlySet<string>,
): CatalogError | undefined {
  const id = describeTool(tool);
  const name = tool.name;
  const invalid = (code: ErrorCode<"catalog">, what: string) =>
    catalogError("validation", code, `tool "${name}" ${what}`, id);
  const revision = tool["revision"];
  if (typeof revision !== "string" || revision === "") {
    const what = Object.hasOwn(tool, "revision")
      ? `a revision that is not a non-empty string (${preview(revision)})`
      : "no revision";
    return invalid("tool_revision_missing", `has ${what}: the runtime's revision is a non-empty string`);
  }
  if (Object.hasOwn(tool, "description") && typeof tool["description"] !== "string") {
    return invalid("tool_description_invalid", "has a description that is not a string");
  }
  const backend = tool["backend"];
  if (backends !== undefined && (typeof backend !== "string" || !backends.has(backend))) {
    const known = backends.size === 0 ? "backends is empty" : `backends: ${[...backends].join(", ")}`;
    return invalid("backend_unknown", `names an unknown backend ${preview(backend)} (${known})`);
  }
  if (backends === undefined && backend !== undefined && typeof backend !== "string") {
    return invalid("tool_invalid", "has a backend that is not a string");
  }
  if (seen.has(name))
    return catalogError("validation", "tool_duplicate", `tool name "${name}" appears more than once`, id);
  if (!Object.hasOwn(tool, "inputSchema") || tool["inputSchema"] === undefined) {
    const other = Object.keys(tool).find((field) => SPELLINGS.get(field.toLowerCase()) === "inputSchema");
    const hint = other === undefined ? "" : ` (it has ${JSON.stringify(other)}: MCP spells the field inputSchema)`;
    return invalid("tool_invalid", `has no inputSchema${hint}`);
  }
  // outputSchema may be any schema, a boolean included: OutputSchema decides.
  if (Object.hasOwn(tool, "annotations") && !isObject(tool["annotations"])) {
    return invalid("tool_invalid", "has annotations that are not an object");
  }
  return executionError(tool["execution"], invalid);
}

/** MCP `ToolExecution.taskSupport` values (2025-11-25 schema). */
const TASK_SUPPORT: ReadonlySet<unknown> = new Set(["forbidden", "optional", "required"]);

function executionError(
  execution: unknown,
  invalid: (code: ErrorCode<"catalog">, what: string) => CatalogError,
): CatalogError | undefined {
  if (execution === undefined) return undefined;
  if (!isObject(execution)) return invalid("tool_invalid", "has an execution field that is not an object");
  const support = execution["taskSupport"];
  if (support !== undefined && !TASK_SUPPORT.has(support)) {
    return invalid(
      "tool_invalid",
      `has execution.taskSupport ${preview(support)}, not "forbidden", "optional" or "required"`,
    );
  }
  return undefined;
}

/**
 * A descriptor's own fields, each read once (a getter runs once), as a plain object of data properties: everything
 * admission checks, compiles and hands on is read from it, so no field can show the check one value and the bundle
 * another.
 */
export function readDescriptor(tool: Record<string, unknown>): ToolDescriptor {
  const out = {} as ToolDescriptor;
  for (const key of Object.keys(tool)) {
    const value = tool[key];
    // An optional MCP field set to undefined is absent (an SDK 2.x client lists tools so), as JSON.stringify has it.
    if (value !== undefined) defineOwn(out, key, value);
  }
  return out;
}

/** Fields of a descriptor a model is not shown: the runtime's own, and MCP's protocol metadata for clients. */
const NOT_FOR_THE_MODEL: ReadonlySet<string> = new Set(["revision", "backend", "_meta"]);

/** The MCP part of a descriptor a model is shown: every own field but `revision`, `backend` and `_meta`. */
export function providerTool(tool: ToolDescriptor): ProviderTool {
  const out = {} as ProviderTool;
  for (const key of Object.keys(tool)) if (!NOT_FOR_THE_MODEL.has(key)) defineOwn(out, key, tool[key]);
  return out;
}

/** The fields whose values the schema boundary bounds itself (compiled under the same limits). */
const SCHEMA_FIELDS: ReadonlySet<string> = new Set(["inputSchema", "outputSchema"]);

/**
 * Whether everything in a descriptor but its two schemas (`annotations`, `icons`, `execution`, `_meta`, `title`,
 * `description`, any field a later MCP version adds) is inside the schema limits, so that no part of a tool can nest
 * past what a serialiser or a model request survives: at most `maxSchemaDepth` levels below the descriptor (a field's
 * value is level 1, each array or object in it one more) and `maxSchemaNodes` values. (Their size is bounded by the
 * canonical form's budget.) Walked with an explicit stack; the first limit hit is the tool's `tool_invalid` error
 * (class `execution_failure`, the `limit_exceeded` cause naming the limit), else undefined.
 */
export function descriptorLimitError(tool: ToolDescriptor, limits: Readonly<Limits>): CatalogError | undefined {
  const stack: [value: unknown, depth: number, field: string][] = [];
  const exceeded = (limit: "maxSchemaDepth" | "maxSchemaNodes", field: string) => {
    const message = `tool "${tool.name}" has data outside its schemas over ${limit} (${limits[limit]}) in ${field}`;
    const id = { name: tool.name, revision: tool.revision };
    const error = catalogError("execution_failure", "tool_invalid", message, id);
    error.cause = BoundaryError.from(new LimitError(limit, limits[limit]));
    return error;
  };
  for (const field of Object.keys(tool)) if (!SCHEMA_FIELDS.has(field)) stack.push([tool[field], 1, field]);
  let nodes = stack.length;
  while (stack.length > 0) {
    const [value, depth, field] = stack.pop() as [unknown, number, string];
    if (!Array.isArray(value) && !isObject(value)) continue;
    if (depth > limits.maxSchemaDepth) return exceeded("maxSchemaDepth", field);
    const items = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    nodes += items.length;
    if (nodes > limits.maxSchemaNodes) return exceeded("maxSchemaNodes", field);
    for (const item of items) stack.push([item, depth + 1, field]);
  }
  return undefined;
}
