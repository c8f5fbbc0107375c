/** What `ToolCatalog.admitBatch` returns: the admitted tools, their provider tools, the narrowed authority. */

import type { TargetRequest } from "../providers/admission-targets.js";
import type { Authority } from "./authority.js";
import type { HiddenText } from "../identity/hidden-text.js";
import type { CompiledInputSchema } from "../boundary/input-schema.js";
import type { BoundaryError } from "../errors/boundary-error.js";
import type { CompiledOutputSchema } from "../boundary/output-schema.js";
import type { IdentityError } from "../identity/pins.js";
import type { ProviderError } from "../providers/report.js";
import type { ProviderTool } from "../descriptor/tool-descriptor.js";
import type { UpgradeChange } from "../boundary/dialects/upgrade.js";
import type { CatalogError } from "../errors/catalog-error.js";
import type { McpHeader } from "../descriptor/mcp-headers.js";
import type { ClosedArgumentsReport } from "../providers/closed-arguments.js";

export type { ClosedArgumentsReport, OpenObject } from "../providers/closed-arguments.js";

/**
 * A tool's closed arguments (`closedArguments: true`): the object schemas closed and those left open, with pointers
 * into its input schema (as admission compiled it), and the closed schema calls are checked against.
 */
export interface ClosedArgumentsCheck extends ClosedArgumentsReport {
  /** The input schema with those objects closed, compiled; absent when nothing could be closed. */
  readonly compiled?: CompiledInputSchema;
}

/** Which of a tool's schemas a diagnostic or an upgrade is about. */
export type SchemaField = "inputSchema" | "outputSchema";

/** An admitted tool: the descriptor's fields (the same schema objects) and its compiled schemas. */
export interface AdmittedTool {
  /** The tool name the bundle lists it under (with its namespace prefix, when the batch has one). */
  readonly name: string;
  /** The name the tool's server knows it by: `name` without the namespace prefix, what `dispatch` calls. */
  readonly serverName: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** The descriptor's description, when it has one. */
  readonly description?: string;
  /** The descriptor's backend (absent when the descriptor has none, which only a batch without `backends` admits). */
  readonly backend?: string;
  /** The descriptor's input schema, the very same object. */
  readonly inputSchema: Record<string, unknown>;
  /** The descriptor's output schema, the very same value, when it has one. */
  readonly outputSchema?: Record<string, unknown> | boolean;
  /** The descriptor's annotations, when it has them. */
  readonly annotations?: Record<string, unknown>;
  /**
   * The descriptor's MCP `_meta`, the very same value, when it has one: protocol metadata for the client (an MCP
   * host forwarding the tool passes it on). Not pinned, not scanned for hidden text, and never in `provider`.
   */
  readonly meta?: Record<string, unknown>;
  /**
   * Its `x-mcp-header` annotations (MCP 2026-07-28), in schema order: an HTTP host sends `Mcp-Param-{name}` with the
   * value at `path` of the validated arguments. Empty when it has none, or when the batch ignores them.
   */
  readonly headers: readonly McpHeader[];
  /**
   * `execution.taskSupport` (MCP 2025-11-25) when the descriptor declares it: `"required"` means the tool must be
   * called as a task, which a host without task support cannot do.
   */
  readonly taskSupport?: "forbidden" | "optional" | "required";
  /** What a model is shown of the descriptor: the very object `AdmittedBundle.tools` lists for this tool. */
  readonly provider: ProviderTool;
  /** The compiled input schema. */
  readonly compiled: CompiledInputSchema;
  /** The compiled output schema, when the tool has an `outputSchema`: `Execution.invoke` checks results with it. */
  readonly compiledOutput?: CompiledOutputSchema;
  /**
   * With `closedArguments: true`: what closing its arguments did. `Execution.invoke` refuses a call the closed schema
   * refuses (`arguments_undeclared`) after the input schema accepted it.
   */
  readonly closedArguments?: ClosedArgumentsCheck;
}

/**
 * Why a listed tool is not in the bundle, as admission decided it:
 * - `quarantined`: it needs something this boundary or a required provider target does not support (a schema's
 *   `unsupported_capability`, a provider's refusal); another configuration may admit it;
 * - `held`: it changed since its pin, or has none under `unpinned: "hold"`; a person's approval admits it;
 * - `refused`: its definition breaks a rule (a tool name, an `x-mcp-header`, hidden text under
 *   `hiddenText: "refuse"`); only a new definition can be admitted.
 */
export type RejectionStatus = "quarantined" | "held" | "refused";

/** The fields of a `RejectedTool`. */
export interface RejectedToolFields {
  /** The tool name (its listed name; empty when the descriptor's name is not a string). */
  readonly name: string;
  /** The descriptor's revision (empty when it has none). */
  readonly revision: string;
  /** Why it is not admitted. */
  readonly status: RejectionStatus;
  /** The error behind it (see `RejectedTool.error`). */
  readonly error: BoundaryError | IdentityError | ProviderError | CatalogError;
  /** Which schema was refused, when a schema was. */
  readonly schema?: SchemaField;
  /** For a held or refused identity: what approving the definition it has now pins. */
  readonly pin?: string;
}

/**
 * A tool that was listed but not admitted, with its status (`RejectionStatus`): quarantined for an unsupported
 * schema or a required provider target's refusal; held for review when it changed or has no pin; refused for an
 * invalid name, an invalid `x-mcp-header` or hidden text. Trusted-host data: it serialises to a redaction, never to
 * its contents.
 */
export class RejectedTool {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** Why it is not in the bundle: `quarantined`, `held` or `refused`. */
  readonly status: RejectionStatus;
  /**
   * The schema's own `validateSchema` error (`unsupported_capability`), unchanged; or the identity refusal
   * (`tool_changed` with `fields`, `tool_unpinned`, `hidden_text` with `hiddenText`); or a required provider target's
   * refusal (`provider_unsupported` with `profile`, `rule`, `keyword`, `schemaPointer`); or the metadata refusal
   * (`tool_name_invalid`, `header_invalid` with `schemaPointer`).
   */
  readonly error: BoundaryError | IdentityError | ProviderError | CatalogError;
  /** Which schema was refused; absent for an identity refusal and for a provider's refusal of the name. */
  declare readonly schema?: SchemaField;
  /**
   * For an identity refusal: the canonical text of the definition the tool has now, which is what approving it
   * pins (pass it in `pins`). Host data, like the rest of the diagnostic.
   */
  declare readonly pin?: string;

  /** @internal */
  constructor(fields: RejectedToolFields) {
    this.name = fields.name;
    this.revision = fields.revision;
    this.status = fields.status;
    this.error = fields.error;
    if (fields.schema !== undefined) this.schema = fields.schema;
    if (fields.pin !== undefined) this.pin = fields.pin;
    Object.freeze(this);
  }

  /** A redaction: diagnostics must not reach model requests, events or checkpoints. */
  toJSON(): string {
    return "[rejected tool diagnostic redacted]";
  }
}

/** Hidden text found in an admitted (or held) tool under `hiddenText: "report"`. Trusted-host data, redacted. */
export class HiddenTextReport {
  /** The diagnostic's code, as a refusal under `hiddenText: "refuse"` would carry it. */
  readonly code = "hidden_text";

  constructor(
    /** The tool name. */
    readonly name: string,
    /** The descriptor's revision. */
    readonly revision: string,
    /** Where the invisible or reordering characters are (JSON Pointers into the provider tool), and which. */
    readonly places: readonly HiddenText[],
  ) {
    Object.freeze(this);
  }

  /** A redaction: diagnostics must not reach model requests, events or checkpoints. */
  toJSON(): string {
    return "[hidden text diagnostic redacted]";
  }
}

/** A draft-07 schema that `draft07: "upgrade"` translated: the tool, which schema, and what changed. */
export interface UpgradedSchema {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** Which schema was translated (the published object is unchanged; provider tools carry it). */
  readonly schema: SchemaField;
  /** What the translation changed, by JSON Pointer into the published schema. */
  readonly changes: readonly UpgradeChange[];
}

/** @internal What an `AdmittedBundle` is built from (`bundle-builder.ts`). */
export interface BundleParts {
  readonly registry: Map<string, AdmittedTool>;
  readonly tools: ProviderTool[];
  readonly authority: Authority;
  readonly accepted: string[];
  readonly rejected: RejectedTool[];
  readonly upgraded: UpgradedSchema[];
  readonly pins: Record<string, string>;
  readonly hiddenText: HiddenTextReport[];
  readonly requests: ReadonlyMap<string, TargetRequest>;
}

/** One executable bundle: the registry the gateways look tools up in, and what a model may be shown. */
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
  /** The draft-07 schemas `draft07: "upgrade"` translated, in input order (admitted tools only). */
  readonly upgraded: readonly UpgradedSchema[];
  /**
   * Each admitted tool's pin: tool name → the canonical text of its provider tool (`ToolCatalog.canonical`), in
   * input order. JSON-serialisable: persist it and pass it back as `pins`.
   */
  readonly pins: Readonly<Record<string, string>>;
  /** Hidden text in admitted and held tools, in input order (not enumerable, and redacted when serialised). */
  declare readonly hiddenText: readonly HiddenTextReport[];
  /** The provider targets' requests by profile id (not enumerable; read them with `forTarget`). */
  declare private readonly requests: ReadonlyMap<string, TargetRequest>;

  /** @internal */
  constructor(parts: BundleParts) {
    this.registry = parts.registry;
    this.tools = Object.freeze(parts.tools);
    this.authority = parts.authority;
    this.accepted = Object.freeze(parts.accepted);
    Object.defineProperty(this, "rejected", { value: Object.freeze(parts.rejected), enumerable: false });
    this.upgraded = Object.freeze(parts.upgraded);
    this.pins = Object.freeze(parts.pins);
    Object.defineProperty(this, "hiddenText", { value: Object.freeze(parts.hiddenText), enumerable: false });
    Object.defineProperty(this, "requests", { value: parts.requests, enumerable: false });
    Object.freeze(this);
  }

  /** The profile ids the batch was checked against (`targets`), in the order given. */
  get targets(): string[] {
    return [...this.requests.keys()];
  }

  /**
   * One provider target's request: `tools`, the provider-ready tool list (admitted tools the provider takes, renamed
   * and translated or widened as `report` says); `report`, per tool name, its `outcome` (`fits`, `translated`,
   * `widened` or `refused`), `changes` and `error`; `names`, the map from provider tool names back to the bundle's;
   * `usage` and `errors`, the per-request budgets. `id` is a target's profile id or name as given to `admitBatch`
   * (`openai-strict` or `openai-strict@2026-10`). Undefined for a profile the batch was not checked against.
   */
  forTarget(id: string): TargetRequest | undefined {
    const exact = this.requests.get(id);
    if (exact !== undefined || typeof id !== "string") return exact;
    // A bare name: the newest version the batch was checked against.
    const versions = [...this.requests.keys()].filter((key) => key.startsWith(`${id}@`)).sort();
    const newest = versions[versions.length - 1];
    return newest === undefined ? undefined : this.requests.get(newest);
  }

  /** Serialises only what a model or a checkpoint may see: provider tools, accepted names and the authority. */
  toJSON(): Pick<AdmittedBundle, "tools" | "accepted" | "authority"> {
    return { tools: this.tools, accepted: this.accepted, authority: this.authority };
  }
}
