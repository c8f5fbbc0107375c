/**
 * `Conversation` (docs/guide/admission.md "Conversations"): holds one admitted bundle at a time. Model requests,
 * subscriber events and checkpoints are built from the admitted bundle only; a failed catalog update leaves the
 * previous bundle in force. Each admitted catalog is reviewed against the one before it (docs/guide/pins.md): changed
 * and unpinned tools are held until the host approves them. Options are checked by name and value under the
 * conversation's own names; no method but `start` (documented to) throws, and a throwing subscriber neither stops the
 * others nor undoes an update.
 */

import { isObject } from "../../engine/json/json.js";
import type { BackplaneError, ErrorClass } from "../../engine/errors.js";
import { optionRefusal, type CatalogError } from "../errors/catalog-error.js";
import type { ErrorCode } from "../errors/codes.js";
import { CatalogReview, checkpointMismatch, type CatalogChanges, type HeldTool } from "./catalog-review.js";
import {
  conversationOptionsError,
  MISPLACED_RESTORE,
  MISPLACED_START,
  readCheckpoint,
  readNames,
  readOptions,
  RESTORE_OPTIONS,
  START_OPTIONS,
  UPDATE_OPTIONS,
  type Checkpoint,
  type ConversationOptions,
  type OptionsCheck,
  type Policy,
  type UpdateOptions,
} from "./conversation-input.js";
import { Execution, type ExecutionError, type ExecutionHost, type ToolCall } from "../execution/execution.js";
import type { InputSchemaOptions } from "../boundary/input-schema.js";
import { err, ok, type Result } from "../errors/result.js";
import type { AdmittedBundle } from "../admission/admitted-bundle.js";
import { narrowAuthority, type Authority } from "../admission/authority.js";
import { listedName, readNaming } from "../descriptor/namespace.js";
import { readPins } from "../identity/pins.js";
import { admitCatalog, readBatch, type AdmissionMode } from "../admission/tool-catalog.js";
import type { ProviderTool } from "../descriptor/tool-descriptor.js";

function optionsInvalid(message: string): { ok: false; error: CatalogError } {
  return err({ class: "validation", code: "options_invalid", message });
}

/**
 * What `start`, `restore` and `updateCatalog` open with: their options checked by name and value, read once, and the
 * pins they approve read; or `options_invalid`.
 */
function openOptions<T extends { pins?: unknown }>(
  options: T,
  check: OptionsCheck,
): Result<{ given: T; pins: Map<string, string> }, CatalogError> {
  const refused = conversationOptionsError(options, check);
  if (refused !== undefined) return err(refused);
  const read = readOptions(options, check.what);
  if (!read.ok) return read;
  const given = read.value;
  const pins = readPins(given.pins, optionRefusal(check.what, "pins"));
  if (!pins.ok) return pins;
  return ok({ given, pins: pins.value });
}

/**
 * An admitted catalog update (or approval): the bundle now in force, what it changed against the catalog before it,
 * and what any subscriber threw while hearing of it (in subscription order; the update stands).
 */
export interface CatalogAdmitted extends CatalogChanges {
  /** The catalog was admitted and is now in force. */
  ok: true;
  /** The bundle now in force. */
  value: AdmittedBundle;
  /** What subscribers threw, each value as thrown; empty when none did. */
  subscriberErrors: unknown[];
}

/** What `updateCatalog` and `approve` return: the admitted update, or why the catalog was refused. */
export type CatalogUpdate =
  | CatalogAdmitted
  | {
      /** The catalog was refused; the previous bundle stays in force. */
      ok: false;
      /** Why. */
      error: CatalogError;
    };

/**
 * Emitted to subscribers when a catalog update (or an approval) is admitted; built from the admitted bundle and the
 * comparison with the catalog before it only: names and JSON Pointers, no descriptor text, no diagnostic.
 */
export interface CatalogUpdatedEvent extends CatalogChanges {
  /** The event type. */
  type: "catalog_updated";
  /** 1 for the catalog the conversation started with, then +1 per successful update. */
  catalogRevision: number;
  /** The admitted tool names, in catalog order. */
  accepted: string[];
  /** The provider tools a model may now be shown. */
  tools: ProviderTool[];
}

/**
 * Thrown by `Conversation.start` when the first catalog is not admitted (use `tryStart` for a Result): an `Error` of
 * the error family, whose fields are those of the refused catalog's `CatalogError`, which it also carries whole.
 */
export class CatalogAdmissionError extends Error implements BackplaneError<ErrorCode<"catalog">> {
  /** The `CatalogError`'s class. */
  readonly class: ErrorClass;
  /** The `CatalogError`'s code. */
  readonly code: ErrorCode<"catalog">;
  /** The `CatalogError`'s schema pointer, when it has one. */
  declare readonly schemaPointer?: string;
  /** The `CatalogError`'s instance pointer, when it has one. */
  declare readonly instancePointer?: string;

  /** Wraps the refused catalog's `CatalogError`; the `Error` message is its message. */
  constructor(
    /** Why the catalog was not admitted. */
    readonly error: CatalogError,
  ) {
    super(error.message);
    this.name = "CatalogAdmissionError";
    this.class = error.class;
    this.code = error.code;
    if (error.schemaPointer !== undefined) this.schemaPointer = error.schemaPointer;
    if (error.instancePointer !== undefined) this.instancePointer = error.instancePointer;
  }
}

/** What a conversation holds besides its revision and its subscribers. */
interface ConversationState {
  readonly bundle: AdmittedBundle;
  readonly catalog: unknown[];
  readonly review: CatalogReview;
  readonly mode: AdmissionMode;
  readonly authority: Authority | undefined;
  readonly backends: readonly string[] | ReadonlySet<string> | undefined;
  readonly schemaOptions: InputSchemaOptions;
  readonly policy: Policy;
}

/** A subscriber to catalog events. */
export type CatalogListener = (event: CatalogUpdatedEvent) => void;

/**
 * A conversation with one MCP server's tools (docs/guide/admission.md "Conversations"): it holds one admitted
 * bundle at a time, admits catalog updates with the same boundary, and builds model requests, subscriber events and
 * checkpoints from the admitted bundle only. Calls go through `Execution.invoke` on the bundle in force. A tool that
 * differs from its pin, or is new under `unpinned: "hold"`, is held (not shown, no grant) until `approve`d, whatever
 * `schemaAdmission` says.
 */
export class Conversation {
  private bundle: AdmittedBundle;
  private revision = 1;
  private readonly listeners = new Set<CatalogListener>();
  /** The catalog in force as admission read it (plain copies), to admit again when a held tool is approved. */
  private catalog: unknown[];
  private readonly review: CatalogReview;
  private mode: AdmissionMode;
  private authority: Authority | undefined;
  private readonly backends: readonly string[] | ReadonlySet<string> | undefined;
  private schemaOptions: InputSchemaOptions;
  private policy: Policy;

  private constructor(state: ConversationState) {
    this.bundle = state.bundle;
    this.catalog = state.catalog;
    this.review = state.review;
    this.mode = state.mode;
    this.authority = state.authority;
    this.backends = state.backends;
    this.schemaOptions = state.schemaOptions;
    this.policy = state.policy;
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
    const opened = openOptions(options, {
      table: START_OPTIONS,
      what: "Conversation.start",
      misplaced: MISPLACED_START,
      required: true,
    });
    if (!opened.ok) return opened;
    return Conversation.admitFirst(opened.value.given, opened.value.pins);
  }

  /** Admits the first catalog with checked options and the pins to admit it with. */
  private static admitFirst(
    options: ConversationOptions,
    pins: ReadonlyMap<string, string>,
  ): Result<Conversation, CatalogError> {
    // The pins given were read once, into `pins`.
    const { tools, authority, backends, schemaAdmission = "strict", pins: _given, ...rest } = options;
    const { unpinned, hiddenText, namespace, namespaceSeparator, maxToolNameLength, targets, mcpHeaders, ...more } =
      rest;
    const { closedArguments, ...boundary } = more;
    const schemaOptions = boundary;
    const policy: Policy = {
      unpinned,
      hiddenText,
      namespace,
      namespaceSeparator,
      maxToolNameLength,
      targets,
      mcpHeaders,
      closedArguments,
    };
    const batch = readBatch(tools);
    if (!batch.ok) return batch;
    const admitOptions = { ...schemaOptions, ...policy, mode: schemaAdmission, authority, backends, pins };
    const admitted = admitCatalog(batch.value, admitOptions, true);
    if (!admitted.ok) return admitted;
    const review = new CatalogReview(pins);
    review.record(admitted.value, pins);
    const conversation = new Conversation({
      bundle: admitted.value,
      catalog: batch.value,
      review,
      mode: schemaAdmission,
      authority,
      backends,
      schemaOptions,
      policy,
    });
    return ok(conversation);
  }

  /**
   * Rebuilds a conversation from a checkpoint and the hosts' tool descriptors: the tools are admitted
   * again (with the checkpoint's `schemaAdmission`, `legacyDialects` and `draft07`, unless `options` gives them, and
   * with the
   * checkpoint's pins, to which `options.pins` adds), and the result must be the same catalog (names and revisions,
   * admitted and held) the checkpoint recorded, every tool but those it recorded as held matching its pin (a held
   * tool that `options.pins` approves is admitted). The
   * options are `start`'s but `schemaAdmission` (the checkpoint records it). Never throws: a checkpoint that cannot
   * be read is `checkpoint_invalid`.
   */
  static restore(
    checkpoint: Checkpoint,
    options: Omit<ConversationOptions, "schemaAdmission" | "authority"> & { authority?: Authority },
  ): Result<Conversation, CatalogError> {
    const opened = openOptions(options, {
      table: RESTORE_OPTIONS,
      what: "Conversation.restore",
      misplaced: MISPLACED_RESTORE,
      required: true,
    });
    if (!opened.ok) return opened;
    const { given, pins: approved } = opened.value;
    const checkpointRead = readCheckpoint(checkpoint);
    if (!checkpointRead.ok) return checkpointRead;
    const recorded = checkpointRead.value;
    const pins = new Map(Object.entries(recorded.pins ?? {}));
    for (const [name, pin] of approved) pins.set(name, pin);
    const started = Conversation.admitFirst(
      {
        ...given,
        authority: given.authority ?? recorded.authority,
        schemaAdmission: recorded.schemaAdmission,
        draft07: given.draft07 ?? recorded.draft07,
        legacyDialects: given.legacyDialects ?? recorded.legacyDialects,
      },
      pins,
    );
    if (!started.ok) return started;
    const conversation = started.value;
    const mismatch = checkpointMismatch(
      conversation.bundle,
      conversation.review.held,
      recorded,
      new Set(approved.keys()),
    );
    if (mismatch !== undefined) return err(mismatch);
    conversation.revision = recorded.catalogRevision;
    return ok(conversation);
  }

  /** The bundle in force. */
  get current(): AdmittedBundle {
    return this.bundle;
  }

  /** The tools held for approval (changed since their pins, or new under `unpinned: "hold"`), in catalog order. */
  get held(): HeldTool[] {
    return this.review.held;
  }

  /**
   * The pins in force: each admitted tool's canonical text, and for a held tool the pin it differs from.
   * JSON-serialisable: persist it and pass it back as `pins`.
   */
  get pins(): Record<string, string> {
    return this.review.inForce();
  }

  /**
   * Admits a new catalog (a server's `tools/list_changed`); on failure the previous bundle stays in force and nothing
   * is emitted. Without an explicit `authority`, the conversation's authority is narrowed to the new batch: grants of
   * tools the server removed are dropped (so the update is not refused), and tools it added get none. An explicit
   * authority is checked as `ToolCatalog.admitBatch` checks it, and replaces the conversation's. The catalog is
   * compared with the one in force: a tool that differs from its pin is held, without its grant, until approved; the
   * result and the event list the added, removed, changed and held tools. Subscribers are called in subscription
   * order; one that throws stops neither the others nor the update, and what it threw is on the result's
   * `subscriberErrors`. Never throws.
   */
  updateCatalog(tools: readonly unknown[], options: UpdateOptions = {}): CatalogUpdate {
    const opened = openOptions(options, {
      table: UPDATE_OPTIONS,
      what: "Conversation.updateCatalog",
      misplaced: MISPLACED_START,
      required: false,
    });
    if (!opened.ok) return opened;
    const { given, pins: approvedPins } = opened.value;
    const batch = readBatch(tools);
    if (!batch.ok) return batch;
    const mode = given.schemaAdmission ?? this.mode;
    const authority = given.authority ?? this.narrowedTo(batch.value);
    const schemaOptions = {
      ...this.schemaOptions,
      ...(given.draft07 === undefined ? {} : { draft07: given.draft07 }),
      ...(given.legacyDialects === undefined ? {} : { legacyDialects: given.legacyDialects }),
    };
    const policy: Policy = {
      ...this.policy,
      unpinned: given.unpinned ?? this.policy.unpinned,
      hiddenText: given.hiddenText ?? this.policy.hiddenText,
      targets: given.targets ?? this.policy.targets,
    };
    const pins = this.review.pinsWith(approvedPins);
    const admitOptions = { ...schemaOptions, ...policy, mode, authority, backends: this.backends, pins };
    const admitted = admitCatalog(batch.value, admitOptions, true);
    if (!admitted.ok) return admitted;
    this.mode = mode;
    this.schemaOptions = schemaOptions;
    this.policy = policy;
    this.authority = authority;
    this.catalog = batch.value;
    return this.commit(admitted.value, this.review.record(admitted.value, pins));
  }

  /**
   * Approves held tools: each one's definition as it is now becomes its pin, and the catalog in force is admitted
   * again, so they are shown to the model from now on. A tool gets its grant back only if the conversation's
   * authority (the host's, narrowed to the catalog) has one for it: approving grants nothing. Subscribers hear of it
   * as of an update (`approved` lists the names). A name that is not held is `tool_not_held`, and nothing changes.
   * Never throws.
   */
  approve(names: readonly string[]): CatalogUpdate {
    const given = readNames(names);
    if (given === undefined) return optionsInvalid("Conversation.approve needs a non-empty array of held tool names");
    const approving = this.review.approving(given);
    if (!approving.ok) return approving;
    const pins = approving.value;
    const admitOptions = {
      ...this.schemaOptions,
      ...this.policy,
      mode: this.mode,
      authority: this.authority,
      backends: this.backends,
      pins,
    };
    const admitted = admitCatalog(this.catalog, admitOptions, true);
    if (!admitted.ok) return admitted;
    return this.commit(admitted.value, this.review.record(admitted.value, pins, given));
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

  /** A JSON-serialisable snapshot, built from the admitted bundle and the pins in force only. */
  checkpoint(): Checkpoint {
    return {
      version: 1,
      catalogRevision: this.revision,
      schemaAdmission: this.mode,
      // draft07 only when the host gave it: absent, legacyDialects decides for draft-07 too.
      ...(this.schemaOptions.draft07 === undefined ? {} : { draft07: this.schemaOptions.draft07 }),
      legacyDialects: this.schemaOptions.legacyDialects ?? "refuse",
      tools: this.bundle.accepted.map((name) => ({ name, revision: this.bundle.registry.get(name)?.revision ?? "" })),
      authority: this.bundle.authority,
      pins: this.review.digestsInForce(),
      held: this.review.held.map(({ name, revision }) => ({ name, revision })),
    };
  }

  /** Invokes a tool of the bundle in force through `Execution` (arguments checked first). */
  invoke<T>(call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> {
    return Execution.invoke(this.bundle, call, host);
  }

  /** Puts an admitted bundle in force and tells every subscriber, whatever an earlier one threw. */
  private commit(bundle: AdmittedBundle, changes: CatalogChanges): CatalogUpdate {
    this.bundle = bundle;
    this.revision++;
    const event: CatalogUpdatedEvent = {
      type: "catalog_updated",
      catalogRevision: this.revision,
      accepted: [...bundle.accepted],
      tools: [...bundle.tools],
      // The event's own lists: a subscriber that edits them changes neither the result nor the review.
      added: [...changes.added],
      removed: [...changes.removed],
      changed: changes.changed.map((c) => ({ name: c.name, fields: c.fields })),
      held: [...changes.held],
      approved: [...changes.approved],
    };
    const subscriberErrors: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        subscriberErrors.push(e);
      }
    }
    return { ok: true, value: bundle, subscriberErrors, ...changes };
  }

  /** The conversation's authority without the grants of tools the new batch does not list (by their listed names). */
  private narrowedTo(tools: readonly unknown[]): Authority | undefined {
    if (this.authority === undefined) return undefined;
    const naming = readNaming(this.policy, this.backends === undefined ? undefined : new Set(this.backends));
    if (!naming.ok) return this.authority; // admission refuses the namespace
    const listed = new Set<string>();
    for (const tool of tools) {
      if (isObject(tool) && typeof tool["name"] === "string")
        listed.add(listedName(naming.value, tool["name"], tool["backend"]));
    }
    return narrowAuthority(this.authority, (name) => listed.has(name));
  }
}
