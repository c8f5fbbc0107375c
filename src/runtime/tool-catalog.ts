/**
 * `ToolCatalog.admitBatch` (README "Batch admission and the gateways"): checks every tool's metadata, backend and
 * input schema through `InputSchema`, and returns one executable bundle. Strict by default; quarantine
 * omits only tools whose own schema is `unsupported_capability`. Nothing here throws at the host.
 */

import { isObject, preview } from "../engine/json.js";
import { catalogError, type CatalogError } from "./catalog-error.js";
import { InputSchema, type CompiledInputSchema, type InputSchemaOptions } from "./input-schema.js";
import type { InputSchemaError } from "./input-schema-error.js";
import { err, ok, type Result } from "./result.js";
import { SchemaCache } from "./schema-cache.js";

export type AdmissionMode = "strict" | "quarantine";

/**
 * A tool descriptor: an MCP `Tool` plus the runtime's own `revision` and `backend`. Every other field (those below
 * and any a later MCP version adds) is carried to the provider tool unchanged.
 */
export interface ToolDescriptor {
  /** The MCP tool name: 1–128 characters of `A–Z a–z 0–9 _ - .`, unique in its batch. */
  name: string;
  /** The runtime's opaque, non-empty version of this tool; not shown to a model. */
  revision: string;
  /** The backend that runs the tool, one of the batch's `backends`; not shown to a model. */
  backend: string;
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

/** An authority: who calls, in which run, and what each tool is granted (README "Authority and grants"). */
export interface Authority {
  /** Who is calling, for the host's stages; kept as given. */
  caller?: unknown;
  /** The run the calls belong to, for the host's stages; kept as given. */
  run?: unknown;
  /**
   * Tool name → that tool's grant. When present, a tool without a grant of its own is refused before any host
   * stage (`grant_missing`); the grant is handed to the stages. When absent, grants are not enforced.
   */
  grants?: Record<string, unknown>;
  /** Any other field, kept as given. */
  [field: string]: unknown;
}

/** Options of `ToolCatalog.admitBatch`: the boundary's options plus the batch's own. */
export interface AdmitOptions extends InputSchemaOptions {
  /** `"strict"` (the default) fails the batch on any error; `"quarantine"` omits unsupported tools. */
  mode?: AdmissionMode;
  /** The authority the batch runs under; every grant must name a tool of the batch. */
  authority?: Authority;
  /** The backend ids a tool may name. */
  backends?: readonly string[] | ReadonlySet<string>;
}

/** An admitted tool: the descriptor's fields (the same schema objects) and its compiled schemas. */
export interface AdmittedTool {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** The descriptor's description, when it has one. */
  readonly description?: string;
  /** The descriptor's backend. */
  readonly backend: string;
  /** The descriptor's input schema, the very same object. */
  readonly inputSchema: Record<string, unknown>;
  /** The descriptor's output schema, the very same value, when it has one. */
  readonly outputSchema?: Record<string, unknown> | boolean;
  /** The descriptor's annotations, when it has them. */
  readonly annotations?: Record<string, unknown>;
  /** The MCP part of the descriptor: the very object `AdmittedBundle.tools` lists for this tool. */
  readonly provider: ProviderTool;
  /** The compiled input schema. */
  readonly compiled: CompiledInputSchema;
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

/** A quarantined tool. Trusted-host data: it serialises to a redaction, never to its contents. */
export class RejectedTool {
  constructor(
    readonly name: string,
    readonly revision: string,
    readonly error: InputSchemaError,
  ) {
    Object.freeze(this);
  }

  toJSON(): string {
    return "[rejected tool diagnostic redacted]";
  }
}

export class AdmittedBundle {
  /** Name → admitted tool. A Map: no property name can reach a prototype. */
  readonly registry: ReadonlyMap<string, AdmittedTool>;
  /** Provider tools in input order. */
  readonly tools: readonly ProviderTool[];
  /** The authority with grants of rejected tools removed; every other field kept. */
  readonly authority: Authority;
  /** Accepted tool names in input order. */
  readonly accepted: readonly string[];
  /** Rejected diagnostics in input order (not enumerable, and redacted when serialised). */
  declare readonly rejected: readonly RejectedTool[];

  constructor(
    registry: Map<string, AdmittedTool>,
    tools: ProviderTool[],
    authority: Authority,
    accepted: string[],
    rejected: RejectedTool[],
  ) {
    this.registry = registry;
    this.tools = Object.freeze(tools);
    this.authority = authority;
    this.accepted = Object.freeze(accepted);
    Object.defineProperty(this, "rejected", { value: Object.freeze(rejected), enumerable: false });
    Object.freeze(this);
  }

  /** Serialises only what a model or a checkpoint may see. */
  toJSON(): { tools: readonly ProviderTool[]; accepted: readonly string[]; authority: Authority } {
    return { tools: this.tools, accepted: this.accepted, authority: this.authority };
  }
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function describeTool(value: unknown): { name: string; revision: string } {
  const name = isObject(value) && typeof value["name"] === "string" ? value["name"] : "";
  const revision = isObject(value) && typeof value["revision"] === "string" ? value["revision"] : "";
  return { name, revision };
}

/** Metadata rules (MCP tool names; opaque non-empty revision; string description; known backend). */
function metadataError(
  tool: unknown,
  index: number,
  backends: ReadonlySet<string>,
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
  if (typeof tool["backend"] !== "string" || !backends.has(tool["backend"])) {
    return catalogError(
      "validation",
      "backend_unknown",
      `tool "${name}" names an unknown backend ${preview(tool["backend"])}`,
      id,
    );
  }
  if (seen.has(name))
    return catalogError("validation", "tool_duplicate", `tool name "${name}" appears more than once`, id);
  for (const field of ["outputSchema", "annotations"]) {
    if (Object.hasOwn(tool, field) && !isObject(tool[field])) {
      return catalogError("validation", "tool_invalid", `tool "${name}" has a ${field} that is not an object`, id);
    }
  }
  return undefined;
}

function authorityError(authority: unknown, names: ReadonlySet<string>): CatalogError | undefined {
  if (authority === undefined) return undefined;
  if (!isObject(authority)) return catalogError("validation", "authority_invalid", "authority must be an object");
  if (!Object.hasOwn(authority, "grants")) return undefined;
  const grants = authority["grants"];
  if (!isObject(grants))
    return catalogError("validation", "authority_invalid", "authority.grants must be an object keyed by tool name");
  for (const name of Object.keys(grants)) {
    if (!names.has(name))
      return catalogError(
        "validation",
        "grant_unknown_tool",
        `authority grants "${name}", which is not a tool of this batch`,
      );
  }
  return undefined;
}

/**
 * A copy of the authority keeping only the grants `keep` accepts; every other field is kept, and `grants` is present
 * exactly when the given authority has it (its presence is what turns grant enforcement on). The input is not touched.
 */
export function narrowAuthority(authority: Authority | undefined, keep: (name: string) => boolean): Authority {
  const out: Authority = {};
  if (authority === undefined) return out;
  for (const key of Object.keys(authority)) if (key !== "grants") setOwn(out, key, authority[key]);
  if (!Object.hasOwn(authority, "grants")) return out;
  const given = authority["grants"] as Record<string, unknown>;
  const grants: Record<string, unknown> = {};
  for (const name of Object.keys(given)) if (keep(name)) setOwn(grants, name, given[name]);
  out.grants = grants;
  return out;
}

/** The MCP part of a descriptor: every own field but `revision` and `backend`, as own data properties. */
function providerTool(tool: ToolDescriptor): ProviderTool {
  const out = {} as ProviderTool;
  for (const key of Object.keys(tool)) if (key !== "revision" && key !== "backend") setOwn(out, key, tool[key]);
  return out;
}

export const ToolCatalog = Object.freeze({
  admitBatch(tools: readonly unknown[], options: AdmitOptions = {}): Result<AdmittedBundle, CatalogError> {
    try {
      return admit(tools, options);
    } catch (e) {
      // Descriptors are host data and may be hostile objects (throwing getters, proxies): never a throw.
      return err(
        catalogError(
          "validation",
          "catalog_invalid",
          `the catalog could not be read as plain data: ${e instanceof Error ? e.message : String(e)}`,
        ),
      );
    }
  },
});

function admit(tools: readonly unknown[], options: AdmitOptions): Result<AdmittedBundle, CatalogError> {
  const { mode = "strict", authority, backends = [], ...rest } = options;
  // Identical schemas in one batch compile once, unless the host brings its own (longer-lived) cache.
  const schemaOptions = { ...rest, cache: rest.cache ?? new SchemaCache() };
  if (mode !== "strict" && mode !== "quarantine")
    return err(catalogError("validation", "options_invalid", `mode must be "strict" or "quarantine"`));
  if (!Array.isArray(tools))
    return err(catalogError("validation", "catalog_invalid", "tools must be an array of tool descriptors"));
  const known = new Set<string>(backends);
  const seen = new Set<string>();
  for (let i = 0; i < tools.length; i++) {
    const problem = metadataError(tools[i], i, known, seen);
    if (problem !== undefined) return err(problem);
    seen.add((tools[i] as ToolDescriptor).name);
  }
  const authorityProblem = authorityError(authority, seen);
  if (authorityProblem !== undefined) return err(authorityProblem);

  const registry = new Map<string, AdmittedTool>();
  const provider: ProviderTool[] = [];
  const accepted: string[] = [];
  const rejected: RejectedTool[] = [];
  for (const tool of tools as ToolDescriptor[]) {
    const id = { name: tool.name, revision: tool.revision };
    const compiled = InputSchema.validateSchema(tool.inputSchema, schemaOptions);
    if (!compiled.ok) {
      const e = compiled.error;
      if (mode === "quarantine" && e.class === "unsupported_capability") {
        rejected.push(new RejectedTool(tool.name, tool.revision, e));
        continue;
      }
      return err(
        catalogError(
          e.class,
          "schema_rejected",
          `tool "${tool.name}" (revision ${tool.revision}): ${e.message}`,
          id,
          e,
        ),
      );
    }
    const mcp = providerTool(tool);
    const admitted: AdmittedTool = Object.freeze({ ...copyFields(tool), provider: mcp, compiled: compiled.value });
    registry.set(tool.name, admitted);
    provider.push(mcp);
    accepted.push(tool.name);
  }
  const narrowed = narrowAuthority(authority, (name) => registry.has(name));
  return ok(new AdmittedBundle(registry, provider, narrowed, accepted, rejected));
}

type CopiedFields = Omit<AdmittedTool, "compiled" | "provider">;

function copyFields(tool: ToolDescriptor): CopiedFields {
  const out: { -readonly [K in keyof CopiedFields]: CopiedFields[K] } = {
    name: tool.name,
    revision: tool.revision,
    backend: tool.backend,
    inputSchema: tool.inputSchema,
  };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}
