/**
 * One admission's settings, read once from `admitBatch` options and checked fail closed before any descriptor is
 * read: the mode, the authority, the backends, the naming, the identity policy, the provider targets, the
 * `x-mcp-header` policy and the boundary's options (with a cache, so identical schemas compile once per batch).
 */

import { errorMessage } from "../../engine/errors.js";
import { resolveLimits, type Limits } from "../../engine/limits.js";
import { expecting, optionsProblem, type OptionTable } from "../../engine/options.js";
import { readTargets, targetOptionChecks, type ResolvedTarget } from "../providers/admission-targets.js";
import type { AdmissionTarget } from "../providers/admission-targets.js";
import type { Authority } from "./authority.js";
import { catalogError, optionRefusal, type CatalogError } from "../errors/catalog-error.js";
import type { InputSchemaOptions } from "../boundary/input-schema.js";
import { err, ok, type Result } from "../errors/result.js";
import { SchemaCache } from "../boundary/schema-cache.js";
import { schemaOptionChecks } from "../boundary/schema-options.js";
import { namespaceOptionChecks, readNaming, type Namespace, type Naming } from "../descriptor/namespace.js";
import {
  identityLimits,
  identityOptionChecks,
  readPins,
  type HiddenTextPolicy,
  type IdentityPolicy,
  type Pins,
  type UnpinnedPolicy,
} from "../identity/pins.js";

/**
 * `"strict"` fails the whole batch on any error; `"quarantine"` omits the tools it refuses (an unsupported schema, a
 * provider target, an invalid name or header, an identity its policy refuses); `"isolate"` omits them too, and turns
 * every other error that concerns one tool (a schema that does not compile, bad metadata, a duplicate name, no
 * canonical form) into that tool's rejection (`status: "refused"`) rather than the batch's.
 */
export type AdmissionMode = "strict" | "quarantine" | "isolate";

/** `x-mcp-header` annotations: `"check"` them (the default) or `"ignore"` them (a host on stdio only). */
export type McpHeaderPolicy = "check" | "ignore";

/** Options of `ToolCatalog.admitBatch`: the boundary's options plus the batch's own. */
export interface AdmitOptions extends InputSchemaOptions {
  /**
   * `"strict"` (the default) fails the batch on any error; `"quarantine"` omits the tools it refuses; `"isolate"`
   * omits every tool an error concerns, so that one bad tool never refuses the others (batch-level errors still do).
   */
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
   * digest from `ToolCatalog.digest`). A tool that differs from its pin — its definition or its backend — is not
   * admitted (`tool_changed`).
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
   * Model providers the admitted tools are checked for (docs/guide/providers.md): profile ids such as
   * `"openai-strict"`, profiles, or `{ target, required, widen, describeWidening }`. A required target (the default)
   * must take every admitted tool: strict mode refuses the batch otherwise, quarantine omits the tool. Each target's
   * request is `bundle.forTarget(id)`.
   */
  targets?: readonly AdmissionTarget[];
  /**
   * `x-mcp-header` annotations (MCP 2026-07-28): `"check"` (the default) refuses a tool whose annotations break the
   * rules (`header_invalid`) and lists each tool's headers on its registry entry; `"ignore"` neither checks nor lists
   * them, which the specification allows a client that talks to servers over stdio only.
   */
  mcpHeaders?: McpHeaderPolicy;
  /**
   * Closed arguments (docs/guide/admission.md "Closed arguments"): a call carrying a property the tool's input schema
   * does not declare is refused before any stage (`arguments_undeclared`), even where the schema leaves the object
   * open. Each object is closed only where that is a narrowing refusing nothing declared elsewhere; each admitted
   * tool's `closedArguments` lists the objects closed and those left open. Default `false`: real servers
   * under-declare, and a call the server accepts would be refused.
   */
  closedArguments?: boolean;
}

/** One batch's settings, each option read once. */
export interface BatchSettings {
  readonly mode: AdmissionMode;
  /** Whether changed and unpinned tools are held whatever the mode (a conversation's reviewed update). */
  readonly review: boolean;
  readonly authority: Authority | undefined;
  readonly backends: ReadonlySet<string> | undefined;
  readonly naming: Naming;
  readonly identity: IdentityPolicy;
  readonly targets: readonly ResolvedTarget[] | undefined;
  readonly mcpHeaders: McpHeaderPolicy;
  /** Whether calls are checked against the closed input schema too (`closedArguments`). */
  readonly closedArguments: boolean;
  /** The boundary's options the schemas compile with. */
  readonly schemaOptions: InputSchemaOptions;
  /** The boundary's limits in force (what a descriptor's data outside its schemas is bounded by too). */
  readonly limits: Readonly<Limits>;
}

/** `admitBatch` options, checked fail closed before anything else: the boundary's, plus the batch's own. */
export const admitOptionChecks: OptionTable = new Map([
  ...schemaOptionChecks,
  ...identityOptionChecks,
  ...namespaceOptionChecks,
  ...targetOptionChecks,
  [
    "mode",
    expecting((v) => v === "strict" || v === "quarantine" || v === "isolate", '"strict", "quarantine" or "isolate"'),
  ],
  ["mcpHeaders", expecting((v) => v === "check" || v === "ignore", '"check" or "ignore"')],
  ["closedArguments", expecting((v) => typeof v === "boolean", "a boolean")],
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

function optionsInvalid(message: string): { ok: false; error: CatalogError } {
  return err(catalogError("validation", "options_invalid", message));
}

/** The batch's settings from `admitBatch` options, or why the options are refused. */
export function readSettings(options: AdmitOptions, review: boolean): Result<BatchSettings, CatalogError> {
  let problem: string | undefined;
  try {
    problem = optionsProblem(options, admitOptionChecks, "ToolCatalog.admitBatch");
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    problem = `ToolCatalog.admitBatch options could not be read: ${errorMessage(e)}`;
  }
  if (problem !== undefined) return optionsInvalid(problem);
  const { mode = "strict", authority, backends, pins, unpinned = "admit", hiddenText = "report", ...more } = options;
  const { namespace, namespaceSeparator, maxToolNameLength, targets, mcpHeaders = "check", ...others } = more;
  const { closedArguments = false, ...rest } = others;
  const known = backends === undefined ? undefined : new Set<string>(backends);
  const naming = readNaming({ namespace, namespaceSeparator, maxToolNameLength }, known);
  if (!naming.ok) return naming;
  const approved = readPins(pins, optionRefusal("ToolCatalog.admitBatch", "pins"));
  if (!approved.ok) return approved;
  const resolved =
    targets === undefined
      ? ok(undefined)
      : readTargets(targets, rest, optionRefusal("ToolCatalog.admitBatch", "targets"));
  if (!resolved.ok) return resolved;
  return ok({
    mode,
    review,
    authority,
    backends: known,
    naming: naming.value,
    identity: { pins: approved.value, unpinned, hiddenText, limits: identityLimits(rest.limits) },
    targets: resolved.value,
    mcpHeaders,
    closedArguments,
    // Identical schemas in one batch compile once, unless the host brings its own (longer-lived) cache.
    schemaOptions: { ...rest, cache: rest.cache ?? new SchemaCache() },
    limits: resolveLimits(rest.limits),
  });
}
