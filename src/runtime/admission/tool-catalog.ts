/**
 * `ToolCatalog.admitBatch` (README "Batch admission and the gateways"): checks every tool's metadata, backend and
 * schemas through `InputSchema` and `OutputSchema`, then its identity against the host's pins (README "Pins,
 * reviewed updates and hidden text"), and returns one executable bundle. Strict by default; quarantine omits only
 * tools one of whose schemas is `unsupported_capability` or whose identity the policy refuses. Nothing here throws
 * at the host.
 */

import { errorMessage } from "../../engine/errors.js";
import type { Limits } from "../../engine/limits.js";
import {
  AdmittedBundle,
  HiddenTextReport,
  RejectedTool,
  type AdmittedTool,
  type SchemaField,
  type UpgradedSchema,
} from "./admitted-bundle.js";
import { expecting, optionsProblem, type OptionTable } from "../../engine/options.js";
import {
  assembleRequests,
  checkCandidate,
  providerCatalogError,
  readTargets,
  targetOptionChecks,
  type AdmissionTarget,
  type CheckedCandidate,
  type TargetRequest,
} from "../providers/admission-targets.js";
import { authorityError, narrowAuthority, type Authority } from "./authority.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { InputSchema, type InputSchemaOptions } from "../boundary/input-schema.js";
import type { InputSchemaError } from "../errors/input-schema-error.js";
import { OutputSchema } from "../boundary/output-schema.js";
import { err, ok, type Result } from "../errors/result.js";
import { SchemaCache } from "../boundary/schema-cache.js";
import { schemaOptionChecks } from "../boundary/schema-options.js";
import { defineOwn, isObject } from "../../engine/json/json.js";
import { canonicalTool, toolDigest } from "../identity/tool-identity.js";
import {
  applyNamespace,
  nameLengthError,
  namespaceOptionChecks,
  readNaming,
  type Namespace,
} from "../descriptor/namespace.js";
import {
  checkIdentity,
  identityCatalogError,
  identityLimits,
  identityOptionChecks,
  readPins,
  type HiddenTextPolicy,
  type Pins,
  type UnpinnedPolicy,
} from "../identity/pins.js";
import {
  metadataError,
  providerTool,
  readDescriptor,
  type ProviderTool,
  type ToolDescriptor,
} from "../descriptor/tool-descriptor.js";

/** `"strict"` fails the whole batch on any error; `"quarantine"` omits tools with an unsupported schema. */
export type AdmissionMode = "strict" | "quarantine";

/** Options of `ToolCatalog.admitBatch`: the boundary's options plus the batch's own. */
export interface AdmitOptions extends InputSchemaOptions {
  /** `"strict"` (the default) fails the batch on any error; `"quarantine"` omits unsupported tools. */
  mode?: AdmissionMode;
  /** The authority the batch runs under; every grant must name a tool of the batch. */
  authority?: Authority;
  /**
   * The backend ids a tool may name: with them, every tool's `backend` must be one (`backend_unknown`), so a catalog
   * cannot route a call to a server the host did not list. Without them, `backend` is not checked.
   */
  backends?: readonly string[] | ReadonlySet<string>;
  /**
   * Tool name → the pin the host approved (a canonical text from `bundle.pins` or `ToolCatalog.canonical`, or a
   * digest from `ToolCatalog.digest`). A tool that differs from its pin is not admitted (`tool_changed`).
   */
  pins?: Pins;
  /** A tool without a pin: `"admit"` (trust on first use, the default) or `"hold"` (`tool_unpinned`). */
  unpinned?: UnpinnedPolicy;
  /** Invisible or reordering characters in what the model reads: `"report"` (the default) or `"refuse"`. */
  hiddenText?: HiddenTextPolicy;
  /** Prefixes tool names: one prefix for the batch, or one per backend id (several servers in one batch). */
  namespace?: Namespace;
  /** What joins a namespace and a tool's own name (default `"__"`). */
  namespaceSeparator?: string;
  /** The longest tool name admitted, prefix included (1 to 128, the MCP limit and the default). */
  maxToolNameLength?: number;
  /**
   * Model providers the admitted tools are checked for (README "Provider profiles"): profile ids such as
   * `"openai-strict"`, profiles, or `{ target, required, widen, describeWidening }`. A required target (the default)
   * must take every admitted tool: strict mode refuses the batch otherwise, quarantine omits the tool. Each target's
   * request is `bundle.forTarget(id)`.
   */
  targets?: readonly AdmissionTarget[];
}

/** Batch admission of tool catalogs. */
export const ToolCatalog = Object.freeze({
  /**
   * Admits a batch of tool descriptors as one executable bundle: every tool's metadata, backend and both schemas are
   * checked, and the authority's grants against the batch. Strict (the default) fails the whole batch on any error;
   * quarantine omits tools one of whose schemas is `unsupported_capability` and keeps every other error fatal. Each
   * descriptor's fields are read once, and everything is checked and handed on from that reading. Never throws,
   * whatever the descriptors are.
   */
  admitBatch(tools: readonly unknown[], options: AdmitOptions = {}): Result<AdmittedBundle, CatalogError> {
    return admitCatalog(tools, options, false);
  },

  /**
   * The canonical form of a tool definition: the RFC 8785 text of the descriptor's model-facing part (every field
   * but `_meta` and the runtime's `revision` and `backend`), the same for every order of its members. It is what
   * `bundle.pins` records for a tool admitted under the same `limits`. Throws `SchemaError` (`not_json` with the
   * JSON Pointer, `tool_invalid`) or `LimitError` for a descriptor that has no canonical form.
   */
  canonical(tool: unknown, limits?: Partial<Limits>): string {
    return canonicalTool(tool, identityLimits(limits));
  },

  /**
   * The digest of a tool definition, `sha256-` and the base64url SHA-256 of its canonical text, through the
   * platform's Web Crypto: a compact pin. Rejects as `canonical` throws, and with `web_crypto_unavailable`.
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
    if (!Array.isArray(tools)) {
      return err(catalogError("validation", "catalog_invalid", "tools must be an array of tool descriptors"));
    }
    return ok(Array.from(tools as unknown[], (tool) => (isObject(tool) ? readDescriptor(tool) : tool)));
  } catch (e) {
    return unreadable(e);
  }
}

function unreadable(e: unknown): { ok: false; error: CatalogError } {
  const message = `the catalog could not be read as plain data: ${errorMessage(e)}`;
  return err(catalogError("validation", "catalog_invalid", message));
}

/** `admitBatch` options, checked fail closed before anything else: the boundary's, plus the batch's own. */
export const admitOptionChecks: OptionTable = new Map([
  ...schemaOptionChecks,
  ...identityOptionChecks,
  ...namespaceOptionChecks,
  ...targetOptionChecks,
  ["mode", expecting((v) => v === "strict" || v === "quarantine", '"strict" or "quarantine"')],
  // The authority's shape is checked against the batch (authority_invalid, grant_unknown_tool).
  ["authority", () => undefined],
  [
    "backends",
    expecting(
      (v) =>
        (Array.isArray(v) || v instanceof Set) && [...(v as Iterable<unknown>)].every((b) => typeof b === "string"),
      "an array or Set of backend id strings",
    ),
  ],
]);

function admit(
  tools: readonly unknown[],
  options: AdmitOptions,
  review: boolean,
): Result<AdmittedBundle, CatalogError> {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, admitOptionChecks, "ToolCatalog.admitBatch");
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    problem = `ToolCatalog.admitBatch options could not be read: ${errorMessage(e)}`;
  }
  if (problem !== undefined) return err(catalogError("validation", "options_invalid", problem));
  const { mode = "strict", authority, backends, pins, unpinned = "admit", hiddenText = "report", ...more } = options;
  const { namespace, namespaceSeparator, maxToolNameLength, targets, ...rest } = more;
  // Identical schemas in one batch compile once, unless the host brings its own (longer-lived) cache.
  const schemaOptions = { ...rest, cache: rest.cache ?? new SchemaCache() };
  if (!Array.isArray(tools))
    return err(catalogError("validation", "catalog_invalid", "tools must be an array of tool descriptors"));
  const known = backends === undefined ? undefined : new Set<string>(backends);
  const naming = readNaming({ namespace, namespaceSeparator, maxToolNameLength }, known);
  if (typeof naming === "string") return err(catalogError("validation", "options_invalid", naming));
  const approved = readPins(pins);
  if (typeof approved === "string") {
    return err(catalogError("validation", "options_invalid", `ToolCatalog.admitBatch option "pins" ${approved}`));
  }
  const policy = { pins: approved, unpinned, hiddenText, limits: identityLimits(rest.limits) };
  const providers = targets === undefined ? undefined : readTargets(targets, rest);
  if (typeof providers === "string") {
    return err(catalogError("validation", "options_invalid", `ToolCatalog.admitBatch option "targets" ${providers}`));
  }
  const seen = new Set<string>();
  const descriptors: ToolDescriptor[] = [];
  const serverNames = new Map<ToolDescriptor, string>();
  for (let i = 0; i < tools.length; i++) {
    const given: unknown = tools[i];
    const tool = isObject(given) ? readDescriptor(given) : given;
    const serverName = applyNamespace(tool, naming);
    const problem = nameLengthError(tool, i, naming) ?? metadataError(tool, i, known, seen);
    if (problem !== undefined) return err(problem);
    descriptors.push(tool as ToolDescriptor);
    serverNames.set(tool as ToolDescriptor, serverName as string);
    seen.add((tool as ToolDescriptor).name);
  }
  const authorityProblem = authorityError(authority, seen);
  if (authorityProblem !== undefined) return err(authorityProblem);

  const registry = new Map<string, AdmittedTool>();
  const provider: ProviderTool[] = [];
  const accepted: string[] = [];
  const rejected: RejectedTool[] = [];
  const upgraded: UpgradedSchema[] = [];
  const pinned: Record<string, string> = {};
  const hidden: HiddenTextReport[] = [];
  const checked: CheckedCandidate[] = [];
  for (const tool of descriptors) {
    const input = InputSchema.validateSchema(tool.inputSchema, schemaOptions);
    const output = hasOutputSchema(tool) ? OutputSchema.validateSchema(tool.outputSchema, schemaOptions) : undefined;
    // Every error but an unsupported capability is fatal, whichever schema has it; the input schema's comes first.
    const problems: [SchemaField, InputSchemaError][] = [];
    if (!input.ok) problems.push(["inputSchema", input.error]);
    if (output !== undefined && !output.ok) problems.push(["outputSchema", output.error]);
    const fatal = problems.find(([, e]) => mode === "strict" || e.class !== "unsupported_capability");
    if (fatal !== undefined) return err(schemaRejected(tool, ...fatal));
    if (!input.ok || (output !== undefined && !output.ok)) {
      const [schema, error] = problems[0] as [SchemaField, InputSchemaError];
      rejected.push(new RejectedTool(tool.name, tool.revision, error, schema));
      continue;
    }
    const mcp = providerTool(tool);
    const identity = checkIdentity(mcp, tool.revision, policy);
    if (identity.kind === "failed") return err(identity.error);
    const refusal = identity.kind === "refused" ? identity.error : undefined;
    // Under review a changed or unpinned tool waits for approval whatever the mode; hidden text follows the mode.
    if (refusal !== undefined && mode === "strict" && !(review && refusal.code !== "hidden_text")) {
      return err(identityCatalogError({ name: tool.name, revision: tool.revision }, refusal));
    }
    const hiddenReport =
      identity.hidden.length > 0 && refusal?.code !== "hidden_text"
        ? new HiddenTextReport(tool.name, tool.revision, identity.hidden)
        : undefined;
    if (refusal !== undefined) {
      if (hiddenReport !== undefined) hidden.push(hiddenReport);
      rejected.push(new RejectedTool(tool.name, tool.revision, refusal, undefined, identity.pin));
      continue;
    }
    if (providers !== undefined) {
      // Checked as admission compiled it: a draft-07 schema as upgraded, so that pointers and verdicts agree.
      const candidate = {
        name: tool.name,
        revision: tool.revision,
        tool: compiledView(mcp, input.value, output?.value),
      };
      const { checks, refusal: refused } = checkCandidate(candidate, providers);
      const kept = refused === undefined;
      checked.push({ candidate, checks, kept });
      if (refused !== undefined) {
        if (mode === "strict" || refused.class !== "unsupported_capability")
          return err(providerCatalogError(candidate, refused));
        const field = refused.field === "inputSchema" || refused.field === "outputSchema" ? refused.field : undefined;
        rejected.push(new RejectedTool(tool.name, tool.revision, refused, field));
        continue;
      }
    }
    if (hiddenReport !== undefined) hidden.push(hiddenReport);
    defineOwn(pinned, tool.name, identity.pin);
    const admitted: AdmittedTool = Object.freeze({
      ...copyFields(tool, serverNames.get(tool) as string),
      provider: mcp,
      compiled: input.value,
      ...(output === undefined ? {} : { compiledOutput: output.value }),
    });
    registry.set(tool.name, admitted);
    provider.push(mcp);
    accepted.push(tool.name);
    for (const [schema, compiled] of [
      ["inputSchema", input.value],
      ["outputSchema", output?.value],
    ] as const) {
      const changes = compiled?.upgraded;
      if (changes !== undefined) upgraded.push({ name: tool.name, revision: tool.revision, schema, changes });
    }
  }
  let requests: ReadonlyMap<string, TargetRequest> = new Map();
  let omitted: ReadonlyMap<string, unknown> = new Map();
  if (providers !== undefined) {
    const outcome = assembleRequests(checked, providers, mode === "strict");
    if (!outcome.ok) return outcome;
    ({ requests, omitted } = outcome.value);
    for (const [name, error] of outcome.value.omitted) {
      // Quarantine: a name collision under a required target keeps both tools out.
      const revision = registry.get(name)?.revision ?? "";
      registry.delete(name);
      delete pinned[name];
      const field = error.field === "inputSchema" || error.field === "outputSchema" ? error.field : undefined;
      rejected.push(new RejectedTool(name, revision, error, field));
    }
  }
  const kept = (name: string) => !omitted.has(name);
  return ok(
    new AdmittedBundle(
      registry,
      provider.filter((t) => kept(t.name)),
      narrowAuthority(authority, (name) => registry.has(name)),
      accepted.filter(kept),
      inputOrder(rejected, descriptors),
      upgraded.filter((u) => kept(u.name)),
      pinned,
      hidden.filter((h) => kept(h.name)),
      requests,
    ),
  );
}

/** Rejected diagnostics sorted into the batch's order. */
function inputOrder(rejected: RejectedTool[], descriptors: readonly ToolDescriptor[]): RejectedTool[] {
  const index = new Map(descriptors.map((d, i) => [d.name, i]));
  return rejected.sort((a, b) => (index.get(a.name) ?? 0) - (index.get(b.name) ?? 0));
}

/** The MCP tool as admission compiled it: a draft-07 schema replaced by its upgrade (the published one unchanged). */
function compiledView(
  mcp: ProviderTool,
  input: { validator: { schema: unknown }; upgraded?: unknown },
  output: { validator: { schema: unknown }; upgraded?: unknown } | undefined,
): Record<string, unknown> {
  if (input.upgraded === undefined && output?.upgraded === undefined) return mcp as unknown as Record<string, unknown>;
  const view: Record<string, unknown> = { ...mcp };
  if (input.upgraded !== undefined) view["inputSchema"] = input.validator.schema;
  if (output?.upgraded !== undefined) view["outputSchema"] = output.validator.schema;
  return view;
}

/** MCP makes `outputSchema` optional; an own `undefined` counts as absent. */
function hasOutputSchema(tool: ToolDescriptor): boolean {
  return Object.hasOwn(tool, "outputSchema") && tool.outputSchema !== undefined;
}

function schemaRejected(tool: ToolDescriptor, schema: SchemaField, e: InputSchemaError): CatalogError {
  const error = catalogError(
    e.class,
    "schema_rejected",
    `tool "${tool.name}" (revision ${tool.revision}), ${schema}: ${e.message}`,
    { name: tool.name, revision: tool.revision },
    e,
  );
  error.schema = schema;
  return error;
}

type CopiedFields = Omit<AdmittedTool, "compiled" | "compiledOutput" | "provider">;

function copyFields(tool: ToolDescriptor, serverName: string): CopiedFields {
  const out: { -readonly [K in keyof CopiedFields]: CopiedFields[K] } = {
    name: tool.name,
    serverName,
    revision: tool.revision,
    inputSchema: tool.inputSchema,
  };
  if (tool.backend !== undefined) out.backend = tool.backend;
  if (Object.hasOwn(tool, "description")) out.description = tool.description;
  if (hasOutputSchema(tool)) out.outputSchema = tool.outputSchema;
  if (Object.hasOwn(tool, "annotations")) out.annotations = tool.annotations;
  return out;
}
