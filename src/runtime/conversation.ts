/**
 * `Conversation` (README "Batch admission and the gateways"): holds one admitted bundle at a time. Model requests,
 * subscriber events and checkpoints are built from the admitted bundle only; a failed catalog update
 * leaves the previous bundle in force. Options are checked by name and value under the conversation's own names; no
 * method but `start` (documented to) throws, and a throwing subscriber neither stops the others nor undoes an update.
 */

import { isObject } from "../engine/json.js";
import type { CatalogError } from "./catalog-error.js";
import {
  conversationOptionsProblem,
  MISPLACED_RESTORE,
  MISPLACED_START,
  readCheckpoint,
  readOptions,
  RESTORE_OPTIONS,
  START_OPTIONS,
  UPDATE_OPTIONS,
  type Checkpoint,
} from "./conversation-input.js";
import { Execution, type ExecutionError, type ExecutionHost, type ToolCall } from "./execution.js";
import type { Draft07Mode } from "./draft07.js";
import type { InputSchemaOptions } from "./input-schema.js";
import { err, ok, type Result } from "./result.js";
import type { AdmittedBundle } from "./admitted-bundle.js";
import { narrowAuthority, type Authority } from "./authority.js";
import { ToolCatalog, type AdmissionMode } from "./tool-catalog.js";
import type { ProviderTool } from "./tool-descriptor.js";

/** Options of `Conversation.start` / `tryStart`: the first catalog, how it is admitted, and the boundary options. */
export interface ConversationOptions extends InputSchemaOptions {
  /** The first catalog's tool descriptors. */
  tools: readonly unknown[];
  /** The authority the conversation runs under (README "Authority and grants"). */
  authority?: Authority;
  /** The backend ids a tool may name. */
  backends?: readonly string[] | ReadonlySet<string>;
  /** `"strict"` (the default) or `"quarantine"`, for this and later catalogs unless an update says otherwise. */
  schemaAdmission?: AdmissionMode;
}

/** Options of `Conversation.updateCatalog`; each replaces the conversation's own for this and later catalogs. */
export interface UpdateOptions {
  /** How this and later catalogs are admitted. */
  schemaAdmission?: AdmissionMode;
  /** Whether draft-07 schemas of this and later catalogs are refused or translated exactly. */
  draft07?: Draft07Mode;
  /** Replaces the conversation's authority for this and later catalogs (checked as `admitBatch` checks it). */
  authority?: Authority;
}

function optionsInvalid(message: string): { ok: false; error: CatalogError } {
  return err({ class: "validation", code: "options_invalid", message });
}

/**
 * What `updateCatalog` returns: the admitted bundle, with what any subscriber threw while hearing of it (in
 * subscription order; the update stands), or why the catalog was refused.
 */
export type CatalogUpdate =
  | {
      /** The catalog was admitted and is now in force. */
      ok: true;
      /** The bundle now in force. */
      value: AdmittedBundle;
      /** What subscribers threw, each value as thrown; empty when none did. */
      subscriberErrors: unknown[];
    }
  | {
      /** The catalog was refused; the previous bundle stays in force. */
      ok: false;
      /** Why. */
      error: CatalogError;
    };

/** Emitted to subscribers when a catalog update is admitted; built from the admitted bundle only. */
export interface CatalogUpdatedEvent {
  /** The event type. */
  type: "catalog_updated";
  /** 1 for the catalog the conversation started with, then +1 per successful update. */
  catalogRevision: number;
  /** The admitted tool names, in catalog order. */
  accepted: string[];
  /** The provider tools a model may now be shown. */
  tools: ProviderTool[];
}

/** Thrown by `Conversation.start` when the first catalog is not admitted (use `tryStart` for a Result). */
export class CatalogAdmissionError extends Error {
  /** Wraps the refused catalog's `CatalogError`; the `Error` message is its message. */
  constructor(
    /** Why the catalog was not admitted. */
    readonly error: CatalogError,
  ) {
    super(error.message);
    this.name = "CatalogAdmissionError";
  }
}

/** A subscriber to catalog events. */
export type CatalogListener = (event: CatalogUpdatedEvent) => void;

/**
 * A conversation with one MCP server's tools (README "Batch admission and the gateways"): it holds one admitted
 * bundle at a time, admits catalog updates with the same boundary, and builds model requests, subscriber events and
 * checkpoints from the admitted bundle only. Calls go through `Execution.invoke` on the bundle in force.
 */
export class Conversation {
  private bundle: AdmittedBundle;
  private revision = 1;
  private readonly listeners = new Set<CatalogListener>();

  private constructor(
    bundle: AdmittedBundle,
    private mode: AdmissionMode,
    private authority: Authority | undefined,
    private readonly backends: readonly string[] | ReadonlySet<string> | undefined,
    private schemaOptions: InputSchemaOptions,
  ) {
    this.bundle = bundle;
  }

  /** Starts a conversation; throws `CatalogAdmissionError` when the options or the catalog are refused. */
  static start(options: ConversationOptions): Conversation {
    const started = Conversation.tryStart(options);
    if (!started.ok) throw new CatalogAdmissionError(started.error);
    return started.value;
  }

  /**
   * Starts a conversation, or returns why its options or its first catalog were refused. Options are checked first,
   * as `Conversation.start` options: an unknown name (`mode` is `admitBatch`'s; here it is `schemaAdmission`) or a
   * malformed value is `options_invalid`. Never throws.
   */
  static tryStart(options: ConversationOptions): Result<Conversation, CatalogError> {
    const problem = conversationOptionsProblem(options, START_OPTIONS, "Conversation.start", MISPLACED_START, true);
    if (problem !== undefined) return optionsInvalid(problem);
    return Conversation.admitFirst(options);
  }

  /** Admits the first catalog with checked options; options that cannot be read again are `options_invalid`. */
  private static admitFirst(options: ConversationOptions): Result<Conversation, CatalogError> {
    const given = readOptions(options, "Conversation.start");
    if (typeof given === "string") return optionsInvalid(given);
    const { tools, authority, backends, schemaAdmission = "strict", ...schemaOptions } = given;
    const admitted = ToolCatalog.admitBatch(tools, { mode: schemaAdmission, authority, backends, ...schemaOptions });
    if (!admitted.ok) return admitted;
    return ok(new Conversation(admitted.value, schemaAdmission, authority, backends, schemaOptions));
  }

  /**
   * Rebuilds a conversation from a checkpoint and the hosts' tool descriptors: the tools are admitted
   * again (with the checkpoint's `schemaAdmission` and `draft07`, unless `options` gives `draft07`), and the result
   * must be the same catalog (names and revisions) the checkpoint recorded. The options are `start`'s but
   * `schemaAdmission` (the checkpoint records it). Never throws: a checkpoint that cannot be read is
   * `checkpoint_invalid`.
   */
  static restore(
    checkpoint: Checkpoint,
    options: Omit<ConversationOptions, "schemaAdmission" | "authority"> & { authority?: Authority },
  ): Result<Conversation, CatalogError> {
    const what = "Conversation.restore";
    const problem = conversationOptionsProblem(options, RESTORE_OPTIONS, what, MISPLACED_RESTORE, true);
    if (problem !== undefined) return optionsInvalid(problem);
    const given = readOptions(options, what);
    if (typeof given === "string") return optionsInvalid(given);
    const recorded = readCheckpoint(checkpoint);
    if (typeof recorded === "string") {
      return err({ class: "validation", code: "checkpoint_invalid", message: recorded });
    }
    const started = Conversation.admitFirst({
      ...given,
      authority: given.authority ?? recorded.authority,
      schemaAdmission: recorded.schemaAdmission,
      draft07: given.draft07 ?? recorded.draft07,
    });
    if (!started.ok) return started;
    const conversation = started.value;
    const now = conversation.bundle.accepted.map(
      (name) => `${name}@${conversation.bundle.registry.get(name)?.revision}`,
    );
    const then = recorded.tools.map((t) => `${t.name}@${t.revision}`);
    if (now.join("\n") !== then.join("\n")) {
      return err({
        class: "validation",
        code: "checkpoint_mismatch",
        message:
          "the tools given do not admit to the checkpoint's catalog " +
          `(expected ${then.join(", ")}; got ${now.join(", ")})`,
      });
    }
    conversation.revision = recorded.catalogRevision;
    return ok(conversation);
  }

  /** The bundle in force. */
  get current(): AdmittedBundle {
    return this.bundle;
  }

  /**
   * Admits a new catalog (a server's `tools/list_changed`); on failure the previous bundle stays in force and nothing
   * is emitted. Without an explicit `authority`, the conversation's authority is narrowed to the new batch: grants of
   * tools the server removed are dropped (so the update is not refused), and tools it added get none. An explicit
   * authority is checked as `ToolCatalog.admitBatch` checks it, and replaces the conversation's. Subscribers are
   * called in subscription order; one that throws stops neither the others nor the update, and what it threw is on
   * the result's `subscriberErrors`. Never throws.
   */
  updateCatalog(tools: readonly unknown[], options: UpdateOptions = {}): CatalogUpdate {
    const what = "Conversation.updateCatalog";
    const problem = conversationOptionsProblem(options, UPDATE_OPTIONS, what, MISPLACED_START, false);
    if (problem !== undefined) return optionsInvalid(problem);
    const given = readOptions(options, what);
    if (typeof given === "string") return optionsInvalid(given);
    const mode = given.schemaAdmission ?? this.mode;
    const authority = given.authority ?? this.narrowedTo(tools);
    const schemaOptions =
      given.draft07 === undefined ? this.schemaOptions : { ...this.schemaOptions, draft07: given.draft07 };
    const admitted = ToolCatalog.admitBatch(tools, { ...schemaOptions, mode, authority, backends: this.backends });
    if (!admitted.ok) return admitted;
    this.bundle = admitted.value;
    this.mode = mode;
    this.schemaOptions = schemaOptions;
    this.authority = authority;
    this.revision++;
    const event = this.event();
    // Every subscriber hears of the update, whatever an earlier one threw; what they threw goes back to the host.
    const subscriberErrors: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        subscriberErrors.push(e);
      }
    }
    return { ok: true, value: admitted.value, subscriberErrors };
  }

  /** The provider tools a model is shown (`tools`, a copy of the bundle's list). */
  modelRequest(): Pick<CatalogUpdatedEvent, "tools"> {
    return { tools: [...this.bundle.tools] };
  }

  /** Subscribes to catalog events; returns the function that unsubscribes. */
  subscribe(listener: CatalogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A JSON-serialisable snapshot, built from the admitted bundle only. */
  checkpoint(): Checkpoint {
    return {
      version: 1,
      catalogRevision: this.revision,
      schemaAdmission: this.mode,
      draft07: this.schemaOptions.draft07 ?? "reject",
      tools: this.bundle.accepted.map((name) => ({ name, revision: this.bundle.registry.get(name)?.revision ?? "" })),
      authority: this.bundle.authority,
    };
  }

  /** Invokes a tool of the bundle in force through `Execution` (arguments checked first). */
  invoke<T>(call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> {
    return Execution.invoke(this.bundle, call, host);
  }

  /** The conversation's authority without the grants of tools the new batch does not list. */
  private narrowedTo(tools: readonly unknown[]): Authority | undefined {
    if (this.authority === undefined) return undefined;
    const listed = new Set<string>();
    try {
      for (const tool of tools) if (isObject(tool) && typeof tool["name"] === "string") listed.add(tool["name"]);
    } catch {
      // A batch that cannot be read as data: admission refuses it, whatever the authority.
    }
    return narrowAuthority(this.authority, (name) => listed.has(name));
  }

  private event(): CatalogUpdatedEvent {
    return {
      type: "catalog_updated",
      catalogRevision: this.revision,
      accepted: [...this.bundle.accepted],
      tools: [...this.bundle.tools],
    };
  }
}
