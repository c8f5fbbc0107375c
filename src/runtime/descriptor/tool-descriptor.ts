/**
 * Tool descriptors (README "Batch admission and the gateways"): an MCP `Tool` plus the runtime's `revision` and
 * `backend`; the metadata rules admission checks; and the provider tool a model is shown, which is the descriptor's
 * MCP part, complete and unchanged.
 */

import { isObject, preview, defineOwn } from "../../engine/json/json.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";

/**
 * A tool descriptor: an MCP `Tool` plus the runtime's own `revision` and `backend`. Every other field (those below
 * and any a later MCP version adds) is carried to the provider tool unchanged.
 */
export interface ToolDescriptor {
  /** The MCP tool name: 1–128 characters of `A–Z a–z 0–9 _ - .`, unique in its batch. */
  name: string;
  /** The runtime's opaque, non-empty version of this tool; not shown to a model. */
  revision: string;
  /**
   * The backend that runs the tool (a string): one of the batch's `backends` when the batch names them, otherwise
   * not checked and may be absent. Not shown to a model.
   */
  backend?: string;
  /** MCP `title`: a display name. */
  title?: string;
  /** MCP `description`: what the tool does, written for a model (a string when present). */
  description?: string;
  /** MCP `icons`. */
  icons?: unknown[];
  /** The JSON Schema the arguments must satisfy (an object root), kept as the very same object. */
  inputSchema: Record<string, unknown>;
  /** The JSON Schema a result's `structuredContent` must satisfy, kept as the very same object. */
  outputSchema?: Record<string, unknown> | boolean;
  /** MCP `annotations` (hints such as `readOnlyHint`). */
  annotations?: Record<string, unknown>;
  /** MCP `execution` (e.g. `taskSupport`). */
  execution?: Record<string, unknown>;
  /** MCP `_meta`. */
  _meta?: Record<string, unknown>;
  /** Fields a later MCP version adds. */
  [field: string]: unknown;
}

/**
 * What a model request lists (MCP `tools/list` shape): every field of the descriptor, unchanged and with the same
 * values, except `revision` and `backend`.
 */
export interface ProviderTool {
  /** The tool name. */
  name: string;
  /** MCP `title`. */
  title?: string;
  /** MCP `description`. */
  description?: string;
  /** MCP `icons`. */
  icons?: unknown[];
  /** The input schema, the very same object as the descriptor's. */
  inputSchema: Record<string, unknown>;
  /** The output schema, the very same value as the descriptor's. */
  outputSchema?: Record<string, unknown> | boolean;
  /** MCP `annotations`. */
  annotations?: Record<string, unknown>;
  /** MCP `execution`. */
  execution?: Record<string, unknown>;
  /** MCP `_meta`. */
  _meta?: Record<string, unknown>;
  /** Fields a later MCP version adds. */
  [field: string]: unknown;
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

/**
 * Metadata rules (MCP tool names; opaque non-empty revision; string description; a backend among `backends` when the
 * batch names them, otherwise a string when present).
 */
export function metadataError(
  tool: unknown,
  index: number,
  backends: ReadonlySet<string> | undefined,
  seen: ReadonlySet<string>,
): CatalogError | undefined {
  const id = describeTool(tool);
  if (!isObject(tool)) return catalogError("validation", "tool_invalid", `tool ${index} is not an object`);
  const name = tool["name"];
  if (typeof name !== "string" || !TOOL_NAME.test(name)) {
    return catalogError(
      "validation",
      "tool_name_invalid",
      `tool ${index} has an invalid name ${preview(name)}: 1–128 characters of A–Z a–z 0–9 _ - .`,
      id,
    );
  }
  if (typeof tool["revision"] !== "string" || tool["revision"] === "") {
    return catalogError(
      "validation",
      "tool_revision_missing",
      `tool "${name}" has no revision (a non-empty string)`,
      id,
    );
  }
  if (Object.hasOwn(tool, "description") && typeof tool["description"] !== "string") {
    return catalogError(
      "validation",
      "tool_description_invalid",
      `tool "${name}" has a description that is not a string`,
      id,
    );
  }
  const backend = tool["backend"];
  if (backends !== undefined && (typeof backend !== "string" || !backends.has(backend))) {
    const known = backends.size === 0 ? "backends is empty" : `backends: ${[...backends].join(", ")}`;
    return catalogError(
      "validation",
      "backend_unknown",
      `tool "${name}" names an unknown backend ${preview(backend)} (${known})`,
      id,
    );
  }
  if (backends === undefined && backend !== undefined && typeof backend !== "string") {
    return catalogError("validation", "tool_invalid", `tool "${name}" has a backend that is not a string`, id);
  }
  if (seen.has(name))
    return catalogError("validation", "tool_duplicate", `tool name "${name}" appears more than once`, id);
  // outputSchema may be any schema, a boolean included: OutputSchema decides.
  if (Object.hasOwn(tool, "annotations") && !isObject(tool["annotations"])) {
    return catalogError("validation", "tool_invalid", `tool "${name}" has annotations that are not an object`, id);
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
  for (const key of Object.keys(tool)) defineOwn(out, key, tool[key]);
  return out;
}

/** The MCP part of a descriptor: every own field but `revision` and `backend`, as own data properties. */
export function providerTool(tool: ToolDescriptor): ProviderTool {
  const out = {} as ProviderTool;
  for (const key of Object.keys(tool)) if (key !== "revision" && key !== "backend") defineOwn(out, key, tool[key]);
  return out;
}
