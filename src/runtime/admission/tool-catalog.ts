/**
 * `ToolCatalog.admitBatch` (docs/guide/admission.md): the batch's options are read and checked,
 * every descriptor is read once into a candidate (its name, namespace and metadata checked), the authority is
 * checked against the batch, every candidate goes through the stages (`stages.ts`: schemas, `x-mcp-header`,
 * identity, provider targets), and one builder makes the bundle (`bundle-builder.ts`). Strict by default; quarantine
 * leaves out the tools it refuses, each with its status. Nothing here throws at the host.
 */

import { errorMessage } from "../../engine/errors.js";
import { isObject } from "../../engine/json/json.js";
import type { Limits } from "../../engine/limits.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import { applyNamespace, nameLengthError } from "../descriptor/namespace.js";
import { metadataError, nameError, readDescriptor, type ToolDescriptor } from "../descriptor/tool-descriptor.js";
import { identityLimits } from "../identity/pins.js";
import { canonicalTool, toolDigest } from "../identity/tool-identity.js";
import type { AdmittedBundle } from "./admitted-bundle.js";
import { authorityError } from "./authority.js";
import { readSettings, type AdmitOptions, type BatchSettings } from "./batch.js";
import { buildBundle } from "./bundle-builder.js";
import { refuse, type Candidate } from "./candidate.js";
import { STAGES } from "./stages.js";

export { admitOptionChecks, type AdmissionMode, type AdmitOptions, type McpHeaderPolicy } from "./batch.js";

/** Batch admission of tool catalogs. */
export const ToolCatalog = Object.freeze({
  /**
   * Admits a batch of tool descriptors as one executable bundle: every tool's metadata, backend and both schemas are
   * checked, and the authority's grants against the batch. Strict (the default) fails the whole batch on any error;
   * quarantine leaves out the tools it refuses (an unsupported schema, a required provider's refusal, an invalid
   * name or `x-mcp-header`, an identity its policy refuses) and keeps every other error fatal; isolate also leaves
   * out, as `refused`, every tool any other error concerns (a schema that does not compile, bad metadata, a duplicate
   * name, no canonical form), so only the batch's own errors (options, authority, not an array) fail it. Each
   * descriptor's fields are read once, and everything is checked and handed on from that reading. Never throws,
   * whatever the descriptors are.
   */
  admitBatch(tools: readonly unknown[], options: AdmitOptions = {}): Result<AdmittedBundle, CatalogError> {
    return admitCatalog(tools, options, false);
  },

  /**
   * The canonical form of a tool definition: the RFC 8785 text of what a host reviews of it — every field but
   * `_meta` and the runtime's `revision`, so its `backend` included — the same for every order of its members. It is
   * what `bundle.pins` records for a tool admitted under the same `limits`. Throws `SchemaError` (`not_json` with the
   * JSON Pointer, `tool_invalid`) or `LimitError` for a descriptor that has no canonical form.
   */
  canonical(tool: unknown, limits?: Partial<Limits>): string {
    return canonicalTool(tool, identityLimits(limits));
  },

  /**
   * The digest of a tool definition, `sha256-` and the base64url SHA-256 of its canonical text, through the
   * platform's Web Crypto: a compact pin. Never throws: it rejects as `canonical` throws, and with
   * `web_crypto_unavailable`.
   */
  async digest(tool: unknown, limits?: Partial<Limits>): Promise<string> {
    return toolDigest(tool, identityLimits(limits));
  },
});

/**
 * `admitBatch`, where `review` holds changed and unpinned tools (listed with the rejected ones, to approve later)
 * whatever the mode: what a conversation's catalog updates do. Never throws.
 */
export function admitCatalog(
  tools: readonly unknown[],
  options: AdmitOptions,
  review: boolean,
): Result<AdmittedBundle, CatalogError> {
  try {
    return admit(tools, options, review);
  } catch (e) {
    // Descriptors are host data and may be hostile objects (throwing getters, proxies): never a throw.
    return unreadable(e);
  }
}

/**
 * A batch's descriptors, each read once into a plain copy of its own fields (what admission reads a descriptor as),
 * so that a caller can admit the same catalog again later without reading the host's objects again. Never throws.
 */
export function readBatch(tools: unknown): Result<unknown[], CatalogError> {
  try {
    if (!Array.isArray(tools)) return err(notACatalog());
    return ok(Array.from(tools as unknown[], (tool) => (isObject(tool) ? readDescriptor(tool) : tool)));
  } catch (e) {
    return unreadable(e);
  }
}

function notACatalog(): CatalogError {
  return catalogError("validation", "catalog_invalid", "tools must be an array of tool descriptors");
}

function unreadable(e: unknown): { ok: false; error: CatalogError } {
  const message = `the catalog could not be read as plain data: ${errorMessage(e)}`;
  return err(catalogError("validation", "catalog_invalid", message));
}

function admit(
  tools: readonly unknown[],
  options: AdmitOptions,
  review: boolean,
): Result<AdmittedBundle, CatalogError> {
  const settings = readSettings(options, review);
  if (!settings.ok) return settings;
  const batch = settings.value;
  if (!Array.isArray(tools)) return err(notACatalog());
  const candidates = readCandidates(tools, batch);
  if (!candidates.ok) return candidates;
  const names = new Set(candidates.value.map((c) => c.tool.name).filter((name) => typeof name === "string"));
  const authorityProblem = authorityError(batch.authority, names);
  if (authorityProblem !== undefined) return err(authorityProblem);
  for (const candidate of candidates.value) {
    for (const stage of STAGES) {
      if (candidate.rejection !== undefined) break;
      const fatal = stage(candidate, batch);
      if (fatal !== undefined) return err(fatal);
    }
  }
  return buildBundle(candidates.value, batch);
}

/**
 * Every descriptor read once into a candidate, in batch order, named as it is listed (with its namespace): a tool
 * whose name breaks the MCP rules is refused (strict mode refuses the batch); any other metadata error refuses the
 * batch, or in isolate mode the tool alone.
 */
function readCandidates(tools: readonly unknown[], batch: BatchSettings): Result<Candidate[], CatalogError> {
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  for (let index = 0; index < tools.length; index++) {
    const given: unknown = tools[index];
    if (!isObject(given)) {
      const problem = catalogError("validation", "tool_invalid", `tool ${index} is not an object`);
      if (batch.mode !== "isolate") return err(problem);
      const candidate: Candidate = { index, tool: {} as ToolDescriptor, serverName: "", headers: [], hidden: [] };
      candidates.push(candidate);
      refuse(candidate, batch, { status: "refused", error: problem, batchError: () => problem, alwaysFatal: true });
      continue;
    }
    const listed = applyNamespace(readDescriptor(given), batch.naming);
    const tool = listed.tool;
    const serverName = listed.serverName ?? "";
    const candidate: Candidate = { index, tool: tool as ToolDescriptor, serverName, headers: [], hidden: [] };
    candidates.push(candidate);
    const badName = nameLengthError(tool, index, batch.naming) ?? nameError(tool, index);
    if (badName !== undefined) {
      const fatal = refuse(candidate, batch, { status: "refused", error: badName, batchError: () => badName });
      if (fatal !== undefined) return err(fatal);
      continue;
    }
    const problem = metadataError(tool as ToolDescriptor, batch.backends, seen);
    if (problem !== undefined) {
      const fatal = refuse(candidate, batch, {
        status: "refused",
        error: problem,
        batchError: () => problem,
        alwaysFatal: true,
      });
      if (fatal !== undefined) return err(fatal);
      continue;
    }
    seen.add(candidate.tool.name);
  }
  return ok(candidates);
}
