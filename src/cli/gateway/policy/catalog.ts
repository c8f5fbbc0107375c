/**
 * The gateway's catalog (docs/guide/gateway.md §Admission): the tools of every server that is up, admitted as one
 * batch through a `Conversation` (each server's name its namespace, quarantine, the explicit draft-07 upgrade on by
 * default), every later listing through the conversation's reviewed update, with the pins file's pins, in the
 * library's isolate mode: what quarantine omits (an unsupported schema, a provider target's refusal, hidden text under
 * `refuse`) is reported as quarantined, and a tool whose error would refuse a quarantine batch (a schema that does not
 * compile, bad metadata, a duplicate name) is rejected alone and reported as excluded, so one bad tool never takes the
 * others down and one admission does.
 */

import { isObject } from "../../../engine/json/json.js";
import {
  Conversation,
  SchemaCache,
  type AdmissionTarget,
  type AdmittedBundle,
  type CatalogError,
  type ChangedTool,
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
import { CliError, describeError } from "../../args.js";

/** What joins a server's name and its tool's own name (the library's default separator). */
const SEPARATOR = "__";

/** How the gateway names a server's tools and prompts to its clients, and reads a name back. */
export interface Names {
  /** Whether names carry their server's prefix. */
  readonly namespaced: boolean;
  /** The name a server's tool or prompt is listed by. */
  listed(server: string, name: string): string;
  /** The server and own name a listed name stands for, if any. */
  split(listed: string): { server: string; name: string } | undefined;
}

/**
 * Refuses `--no-namespace` where names could collide: it presents one server's names as they are, so it needs
 * exactly one server (a usage error, exit 2, otherwise).
 */
export function checkNamespacing(servers: readonly string[], namespaced: boolean, file: string): void {
  if (namespaced || servers.length === 1) return;
  throw new CliError(
    `--no-namespace needs exactly one server in ${file} (it names ${servers.length}): ` +
      "the tools and prompts of several servers could share a name",
  );
}

/**
 * `<server>__<name>`, split at the first `__`, the one way it splits, since a server name holds no `__` and neither
 * begins nor ends with `_` (config.ts); or, in front of one server (`--no-namespace`), its own names unchanged.
 */
export function namesFor(servers: readonly string[], namespaced: boolean): Names {
  const [only] = servers;
  if (!namespaced && only !== undefined && servers.length === 1) {
    return { namespaced, listed: (_server, name) => name, split: (listed) => ({ server: only, name: listed }) };
  }
  return {
    namespaced: true,
    listed: (server, name) => server + SEPARATOR + name,
    split: (listed) => {
      const at = listed.indexOf(SEPARATOR);
      return at <= 0 ? undefined : { server: listed.slice(0, at), name: listed.slice(at + SEPARATOR.length) };
    },
  };
}

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
}

/** One server's listing. */
export interface ListedServer {
  readonly name: string;
  /** Every listed tool's revision: the server's version. */
  readonly revision: string;
  readonly tools: readonly unknown[];
}

/** A tool left out of the catalog, and why (for stderr and the audit log: host data). */
export interface LeftOut {
  readonly name: string;
  readonly server: string;
  readonly code: string;
  readonly reason: string;
}

/** What one admission did. */
export interface Admission {
  /** The first admission (no catalog before it). */
  readonly first: boolean;
  readonly accepted: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
  /** Every tool held now. */
  readonly held: readonly HeldTool[];
  readonly approved: readonly string[];
  /** Tools the library quarantined (unsupported schema, provider target, hidden text refused). */
  readonly quarantined: readonly LeftOut[];
  /** Tools excluded alone (their error would have refused a quarantine batch), and listed tools without a name. */
  readonly excluded: readonly LeftOut[];
  /** Tools admitted or held whose model-facing text hides characters (`--hidden-text report`). */
  readonly hiddenText: readonly { readonly name: string; readonly pointers: readonly string[] }[];
  /** With `--closed-arguments`: per admitted tool, the objects of its input schema closed and those left open. */
  readonly closedArguments: readonly ClosedTool[];
}

/** What closing one admitted tool's arguments did. */
export interface ClosedTool {
  readonly name: string;
  readonly closed: readonly string[];
  readonly open: readonly { readonly pointer: string; readonly reason: string }[];
}

interface Descriptor {
  readonly server: string;
  readonly listed: string;
  readonly tool: Record<string, unknown>;
}

/** The catalog in force and how each listing is admitted against the pins. */
export class GatewayCatalog {
  private conversation: Conversation | undefined;
  private readonly cache = new SchemaCache();
  /** Listed name → server, for every tool listed (admitted, held or left out). */
  private owners = new Map<string, string>();

  /** How tools and prompts are named to clients. */
  readonly names: Names;

  constructor(private readonly settings: CatalogSettings) {
    this.names = namesFor(settings.servers, settings.namespaced !== false);
  }

  /** The provider tools a client is shown: admitted ones only, exactly as their servers published them. */
  get tools(): ProviderTool[] {
    return this.conversation === undefined ? [] : this.conversation.modelRequest().tools;
  }

  /** The server an admitted tool runs on: its `backend`, which is what a call is dispatched by. */
  backendOf(name: string): string | undefined {
    return this.conversation?.current.registry.get(name)?.backend;
  }

  /** The server a listed tool name belongs to (admitted, held or left out), if any. */
  serverOf(name: string): string | undefined {
    return this.owners.get(name);
  }

  /** Every tool of the last listing (admitted, held or left out), with its server. */
  listed(): IterableIterator<[string, string]> {
    return this.owners.entries();
  }

  /** The pins in force (canonical texts; a held tool's is the pin it differs from). */
  get pins(): Record<string, string> {
    return this.conversation?.pins ?? {};
  }

  /** The held tools with the definition each has now (what approving it pins). */
  held(): Map<string, { server: string; code: string; fields: readonly string[]; canonical: string }> {
    const out = new Map<string, { server: string; code: string; fields: readonly string[]; canonical: string }>();
    const bundle = this.conversation?.current;
    for (const h of this.conversation?.held ?? []) {
      const candidate = bundle?.rejected.find((r) => r.name === h.name)?.pin;
      if (candidate !== undefined) {
        out.set(h.name, {
          server: this.owners.get(h.name) ?? "",
          code: h.code,
          fields: h.fields,
          canonical: candidate,
        });
      }
    }
    return out;
  }

  /** Runs a call through `Execution.invoke` on the catalog in force. */
  invoke<T>(call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> | undefined {
    return this.conversation?.invoke(call, host);
  }

  /**
   * Admits the listings of the servers that are up, with `pins` (the pins file's) added to the pins in force. Returns
   * what changed, or why no catalog could be admitted (the previous one stays in force).
   */
  admit(listed: readonly ListedServer[], pins: Readonly<Record<string, string>>): Result<Admission, string> {
    const descriptors: Descriptor[] = [];
    const excluded: LeftOut[] = [];
    this.owners = new Map();
    for (const server of listed) {
      for (const tool of server.tools) {
        const name = isObject(tool) && typeof tool["name"] === "string" ? tool["name"] : undefined;
        if (name === undefined || !isObject(tool)) {
          excluded.push({
            name: "(unnamed)",
            server: server.name,
            code: "tool_invalid",
            reason: "a listed tool is not an object with a name",
          });
          continue;
        }
        const listed = this.names.listed(server.name, name);
        this.owners.set(listed, server.name);
        descriptors.push({
          server: server.name,
          listed,
          tool: { ...tool, revision: server.revision, backend: server.name },
        });
      }
    }
    // Isolate mode: a tool whose error would refuse the batch is rejected alone, so one admission does.
    const tools = descriptors.map((d) => d.tool);
    const first = this.conversation === undefined;
    const result = first ? this.start(tools, pins) : this.update(tools, pins);
    if (!result.ok) return { ok: false, error: describeError(result.error) };
    return { ok: true, value: this.outcome(result.value, first, excluded) };
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

  private update(tools: unknown[], pins: Readonly<Record<string, string>>): Result<AdmissionChanges, CatalogError> {
    const updated = (this.conversation as Conversation).updateCatalog(tools, { pins: { ...pins } });
    if (!updated.ok) return updated;
    const { value: bundle, added, removed, changed, approved } = updated;
    return { ok: true, value: { bundle, added, removed, changed, approved } };
  }

  private outcome(changes: AdmissionChanges, first: boolean, excluded: LeftOut[]): Admission {
    const { bundle } = changes;
    const quarantined: LeftOut[] = [];
    const all = [...excluded];
    for (const r of bundle.rejected) {
      const code = r.error.code;
      if (r.status === "held") continue;
      const out = { name: r.name, server: this.owners.get(r.name) ?? "", code, reason: describeError(r.error) };
      // What quarantine would omit is quarantined; what would have refused the batch is excluded (isolate mode).
      if (r.status === "quarantined" || code === "hidden_text") quarantined.push(out);
      else all.push(out);
    }
    const hiddenText = bundle.hiddenText.map((h) => ({ name: h.name, pointers: h.places.map((p) => p.pointer) }));
    const closedArguments: ClosedTool[] = [];
    for (const tool of bundle.registry.values()) {
      const c = tool.closedArguments;
      if (c !== undefined) closedArguments.push({ name: tool.name, closed: c.closed, open: c.open });
    }
    return {
      first,
      accepted: [...bundle.accepted],
      added: changes.added,
      removed: changes.removed,
      changed: changes.changed,
      held: (this.conversation as Conversation).held,
      approved: changes.approved,
      quarantined,
      excluded: all,
      hiddenText,
      closedArguments,
    };
  }
}

interface AdmissionChanges {
  readonly bundle: AdmittedBundle;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly ChangedTool[];
  readonly approved: readonly string[];
}
