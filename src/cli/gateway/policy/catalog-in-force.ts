/**
 * The gateway's catalog in force (docs/guide/gateway.md §Admission): one `Conversation`, started by the first
 * admission (each server's name its namespace, quarantine, the explicit draft-07 upgrade on by default) and given
 * every later listing through its reviewed update, so that held tools, approvals and grants are the library's own and
 * a failed admission leaves the previous catalog in force. Admission is in the library's isolate mode: a tool whose
 * error would refuse a quarantine batch is rejected alone, so one bad tool never takes the others down and one
 * admission does. Calls run through it (`Execution.invoke`), against the catalog the clients were shown.
 */

import {
  Conversation,
  SchemaCache,
  type AdmissionTarget,
  type AdmittedBundle,
  type CatalogError,
  type CatalogChanges,
  type Draft07Mode,
  type ExecutionError,
  type ExecutionHost,
  type HeldTool,
  type HiddenTextPolicy,
  type Limits,
  type ProviderTool,
  type Result,
  type ToolCall,
} from "../../../index.js";
import { SEPARATOR, type Names } from "./names.js";

export interface CatalogSettings {
  /** The configured servers, in file order: the backends, each its own namespace. */
  readonly servers: readonly string[];
  /** False: the one server's names are listed as it lists them (`--no-namespace`); else `<server>__<name>`. */
  readonly namespaced?: boolean;
  readonly draft07: Draft07Mode;
  readonly hiddenText: HiddenTextPolicy;
  /** `format` asserts (`--format-assertion`); otherwise it is an annotation, as in the library. */
  readonly formatAssertion: boolean;
  readonly targets?: readonly AdmissionTarget[];
  readonly limits?: Partial<Limits>;
  /** `admit` (trust on first use) or `hold` (`--pins-mode enforce`: a tool without a pin is held). */
  readonly unpinned: "admit" | "hold";
  /** A call carrying a property its tool's schema does not declare is refused (`--closed-arguments`). */
  readonly closedArguments?: boolean;
  /** What happens to a server without an identity pin, when it differs from `unpinned` (review shows new tools). */
  readonly unpinnedServers?: "admit" | "hold";
}

/** What one admission changed, as the library said it (its `CatalogChanges`), and the bundle now in force. */
export interface AdmissionChanges extends Readonly<Pick<CatalogChanges, "added" | "removed" | "changed" | "approved">> {
  readonly bundle: AdmittedBundle;
}

export class CatalogInForce {
  private conversation: Conversation | undefined;
  /** One cache for every admission: a schema listed again is not compiled again. */
  private readonly cache = new SchemaCache();

  constructor(
    private readonly settings: CatalogSettings,
    private readonly names: Names,
  ) {}

  /** Whether a catalog was ever admitted. */
  get started(): boolean {
    return this.conversation !== undefined;
  }

  /**
   * The tools a client is shown: admitted ones only, exactly as their servers published them (every field, `_meta`
   * the very value the server sent), under their listed names.
   */
  get tools(): ProviderTool[] {
    if (this.conversation === undefined) return [];
    const { registry } = this.conversation.current;
    return this.conversation.modelRequest().tools.map((tool) => {
      const meta = registry.get(tool.name)?.meta;
      return meta === undefined ? tool : { ...tool, _meta: meta };
    });
  }

  /** The server an admitted tool runs on: its `backend`, which is what a call is dispatched by. */
  backendOf(name: string): string | undefined {
    return this.conversation?.current.registry.get(name)?.backend;
  }

  /** Runs a call through `Execution.invoke` on the catalog in force. */
  invoke<T>(call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> | undefined {
    return this.conversation?.invoke(call, host);
  }

  /** The admitted tools' names. */
  get accepted(): readonly string[] {
    return this.conversation?.current.accepted ?? [];
  }

  /** The tools the library holds for approval. */
  get held(): readonly HeldTool[] {
    return this.conversation?.held ?? [];
  }

  /** The library's pins in force (each admitted tool's canonical text, a held tool's the pin it differs from). */
  get pins(): Readonly<Record<string, string>> {
    return this.conversation?.pins ?? {};
  }

  /** What approving a tool the library rejected (a held one) pins, as the library recorded it. */
  rejectedPin(name: string): string | undefined {
    return this.conversation?.current.rejected.find((r) => r.name === name)?.pin;
  }

  /** Admits `tools` with `pins` (the library's); on failure the previous catalog stays in force. */
  admit(tools: unknown[], pins: Readonly<Record<string, string>>): Result<AdmissionChanges, CatalogError> {
    return this.conversation === undefined ? this.start(tools, pins) : this.update(this.conversation, tools, pins);
  }

  private start(tools: unknown[], pins: Readonly<Record<string, string>>): Result<AdmissionChanges, CatalogError> {
    const { settings } = this;
    const started = Conversation.tryStart({
      tools,
      backends: settings.servers,
      ...(this.names.namespaced
        ? { namespace: Object.fromEntries(settings.servers.map((name) => [name, name])), namespaceSeparator: SEPARATOR }
        : {}),
      schemaAdmission: "isolate",
      draft07: settings.draft07,
      hiddenText: settings.hiddenText,
      formatAssertion: settings.formatAssertion,
      ...(settings.closedArguments === true ? { closedArguments: true } : {}),
      unpinned: settings.unpinned,
      pins: { ...pins },
      cache: this.cache,
      ...(settings.targets === undefined ? {} : { targets: [...settings.targets] }),
      ...(settings.limits === undefined ? {} : { limits: settings.limits }),
    });
    if (!started.ok) return started;
    this.conversation = started.value;
    const bundle = started.value.current;
    const held = started.value.held.map((h) => h.name);
    return {
      ok: true,
      value: { bundle, added: [...bundle.accepted, ...held], removed: [], changed: [], approved: [] },
    };
  }

  private update(
    conversation: Conversation,
    tools: unknown[],
    pins: Readonly<Record<string, string>>,
  ): Result<AdmissionChanges, CatalogError> {
    const updated = conversation.updateCatalog(tools, { pins: { ...pins } });
    if (!updated.ok) return updated;
    const { value: bundle, added, removed, changed, approved } = updated;
    return { ok: true, value: { bundle, added, removed, changed, approved } };
  }
}
