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

export interface ToolDescriptor {
  name: string;
  revision: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  backend: string;
}

export interface Authority {
  caller?: unknown;
  run?: unknown;
  grants?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface AdmitOptions extends InputSchemaOptions {
  mode?: AdmissionMode;
  authority?: Authority;
  /** The backend ids a tool may name. */
  backends?: readonly string[] | ReadonlySet<string>;
}

/** An admitted tool: the descriptor's fields (the same schema objects) and its compiled input schema. */
export interface AdmittedTool {
  readonly name: string;
  readonly revision: string;
  readonly description?: string;
  readonly backend: string;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
  readonly compiled: CompiledInputSchema;
}

/** What a model request lists (MCP `tools/list` shape). */
export interface ProviderTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
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

/** A copy of the authority with the grants of rejected tools removed; the input is not touched. */
function narrow(authority: Authority | undefined, rejected: ReadonlySet<string>): Authority {
  const out: Authority = {};
  if (authority !== undefined)
    for (const key of Object.keys(authority)) if (key !== "grants") setOwn(out, key, authority[key]);
  const grants: Record<string, unknown> = {};
  const given = authority?.grants;
  if (given !== undefined)
    for (const name of Object.keys(given)) if (!rejected.has(name)) setOwn(grants, name, given[name]);
  out.grants = grants;
  return out;
}

function providerTool(tool: ToolDescriptor): ProviderTool {
  const out: ProviderTool = { name: tool.name, inputSchema: tool.inputSchema };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.outputSchema !== undefined) out.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
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
    const admitted: AdmittedTool = Object.freeze({ ...copyFields(tool), compiled: compiled.value });
    registry.set(tool.name, admitted);
    provider.push(providerTool(tool));
    accepted.push(tool.name);
  }
  const narrowed = narrow(authority, new Set(rejected.map((r) => r.name)));
  return ok(new AdmittedBundle(registry, provider, narrowed, accepted, rejected));
}

function copyFields(tool: ToolDescriptor): Omit<AdmittedTool, "compiled"> {
  const out: { -readonly [K in keyof Omit<AdmittedTool, "compiled">]: Omit<AdmittedTool, "compiled">[K] } = {
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
