/**
 * `ToolCatalog.admitBatch` (README "Batch admission and the gateways"): checks every tool's metadata, backend and
 * schemas through `InputSchema` and `OutputSchema`, and returns one executable bundle. Strict by default; quarantine
 * omits only tools one of whose schemas is `unsupported_capability`. Nothing here throws at the host.
 */

import { AdmittedBundle, RejectedTool, type AdmittedTool } from "./admitted-bundle.js";
import { authorityError, narrowAuthority, type Authority } from "./authority.js";
import { catalogError, type CatalogError } from "./catalog-error.js";
import { InputSchema, type InputSchemaOptions } from "./input-schema.js";
import { err, ok, type Result } from "./result.js";
import { SchemaCache } from "./schema-cache.js";
import { metadataError, providerTool, type ProviderTool, type ToolDescriptor } from "./tool-descriptor.js";

/** `"strict"` fails the whole batch on any error; `"quarantine"` omits tools with an unsupported schema. */
export type AdmissionMode = "strict" | "quarantine";

/** Options of `ToolCatalog.admitBatch`: the boundary's options plus the batch's own. */
export interface AdmitOptions extends InputSchemaOptions {
  /** `"strict"` (the default) fails the batch on any error; `"quarantine"` omits unsupported tools. */
  mode?: AdmissionMode;
  /** The authority the batch runs under; every grant must name a tool of the batch. */
  authority?: Authority;
  /** The backend ids a tool may name. */
  backends?: readonly string[] | ReadonlySet<string>;
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
