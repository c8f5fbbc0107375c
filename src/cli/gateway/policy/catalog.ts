/**
 * The gateway's catalog (docs/guide/gateway.md §Admission): the tools of every server that is up, admitted as one
 * batch through the catalog in force, a `Conversation` (catalog-in-force.ts), with the pins file's pins. What
 * quarantine omits (an unsupported schema, a provider target's refusal, hidden text under `refuse`) is reported as
 * quarantined, and a tool whose error would refuse a quarantine batch (a schema that does not compile, bad metadata, a
 * duplicate name) is rejected alone and reported as excluded.
 */

import type {
  ChangedTool,
  ExecutionError,
  ExecutionHost,
  HeldTool,
  ProviderTool,
  Result,
  ToolCall,
} from "../../../index.js";
import { describeError } from "../../args.js";
import { CatalogInForce, type AdmissionChanges, type CatalogSettings } from "./catalog-in-force.js";
import { readListings, type LeftOut, type ListedServer } from "./listed-tools.js";
import { namesFor, type Names } from "./names.js";
import { judgeServers, judgeTools, type HeldServer, type ServerVerdict, type ToolVerdict } from "./pin-judging.js";
import { serverPinName, type ServerIdentities } from "./server-identity.js";
import type { Shadowed } from "./shadowing.js";

export type { CatalogSettings } from "./catalog-in-force.js";
export type { ListedServer } from "./listed-tools.js";

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
  /** Servers held: their identity differs from its pin (or has none under enforce); their tools are held with them. */
  readonly heldServers: readonly HeldServer[];
  /** Servers whose `serverInfo.version` alone differs from their pin: reported, never held. */
  readonly versionBumps: readonly { readonly server: string; readonly from: string; readonly to: string }[];
  /** Bare tool names more than one server lists, with those servers (namespacing keeps the tools apart). */
  readonly shadowed: readonly Shadowed[];
}

/** What closing one admitted tool's arguments did. */
export interface ClosedTool {
  readonly name: string;
  readonly closed: readonly string[];
  readonly open: readonly { readonly pointer: string; readonly reason: string }[];
}

export class GatewayCatalog {
  private readonly inForce: CatalogInForce;
  /** Listed name → server, for every tool listed (admitted, held or left out). */
  private owners = new Map<string, string>();
  /** The last admission's judgement of each listed tool's pin, by listed name. */
  private verdicts = new Map<string, ToolVerdict>();
  /** The last admission's judgement of each server's identity, by server. */
  private servers = new Map<string, ServerVerdict>();

  /** How tools and prompts are named to clients. */
  readonly names: Names;

  constructor(
    private readonly settings: CatalogSettings,
    /** What each server said it is; without it, servers' identities are not pinned (the library's own hosts). */
    private readonly identities?: ServerIdentities,
  ) {
    this.names = namesFor(settings.servers, settings.namespaced !== false);
    this.inForce = new CatalogInForce(settings, this.names);
  }

  /** The tools a client is shown: the admitted ones, as their servers published them, under their listed names. */
  get tools(): ProviderTool[] {
    return this.inForce.tools;
  }

  /** The server an admitted tool runs on: its `backend`, which is what a call is dispatched by. */
  backendOf(name: string): string | undefined {
    return this.inForce.backendOf(name);
  }

  /** The server a listed tool name belongs to (admitted, held or left out), if any. */
  serverOf(name: string): string | undefined {
    return this.owners.get(name);
  }

  /** Every tool of the last listing (admitted, held or left out), with its server. */
  listed(): IterableIterator<[string, string]> {
    return this.owners.entries();
  }

  /**
   * The pins of the admitted tools, each its listed canonical text (`_meta` included): what trust on first use
   * records.
   */
  get pins(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of this.inForce.accepted) {
      const canonical = this.verdicts.get(name)?.canonical ?? this.inForce.pins[name];
      if (canonical !== undefined) Object.defineProperty(out, name, { value: canonical, enumerable: true });
    }
    return out;
  }

  /**
   * The servers' identity pins to write: those first seen, and those whose version alone moved (trust on first use
   * keeps a version current; it never holds).
   */
  serverPins(): { added: Record<string, string>; refreshed: Record<string, string> } {
    const added: Record<string, string> = {};
    const refreshed: Record<string, string> = {};
    for (const [server, v] of this.servers) {
      if (v.record === true) (v.bump === undefined ? added : refreshed)[serverPinName(server)] = v.identity;
    }
    return { added, refreshed };
  }

  /**
   * The tools held on their own account, as the gateway reports them: the library's hold, with the pointers the
   * gateway found in `_meta` and without the tools held only because their server is.
   */
  private heldTools(): HeldTool[] {
    const out: HeldTool[] = [];
    for (const h of this.inForce.held) {
      const v = this.verdicts.get(h.name);
      if (v === undefined || (v.own === undefined && v.withServer)) continue;
      if (v.own === undefined) {
        out.push(h);
        continue;
      }
      const fields =
        v.own.code === "tool_unpinned" ? [] : [...new Set([...(v.passedPin ? h.fields : []), ...v.own.fields])];
      out.push({
        name: h.name,
        revision: h.revision,
        code: v.own.code,
        fields: fields.length === 0 ? [""] : fields.sort(),
      });
    }
    return out;
  }

  /** The held servers and tools with the definition each has now (what approving it pins), by pin name. */
  held(): Map<string, { server: string; code: string; fields: readonly string[]; canonical: string }> {
    const out = new Map<string, { server: string; code: string; fields: readonly string[]; canonical: string }>();
    for (const [server, v] of this.servers) {
      if (v.held !== undefined)
        out.set(serverPinName(server), { server, code: v.held.code, fields: v.held.fields, canonical: v.identity });
    }
    for (const h of this.heldTools()) {
      const canonical = this.verdicts.get(h.name)?.canonical ?? this.inForce.rejectedPin(h.name);
      if (canonical !== undefined) {
        out.set(h.name, { server: this.owners.get(h.name) ?? "", code: h.code, fields: h.fields, canonical });
      }
    }
    return out;
  }

  /** Runs a call through `Execution.invoke` on the catalog in force. */
  invoke<T>(call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> | undefined {
    return this.inForce.invoke(call, host);
  }

  /**
   * Admits the listings of the servers that are up, with `pins` (the pins file's) added to the pins in force. Returns
   * what changed, or why no catalog could be admitted (the previous one stays in force).
   */
  admit(listed: readonly ListedServer[], pins: Readonly<Record<string, string>>): Result<Admission, string> {
    const { descriptors, owners, excluded, shadowed } = readListings(listed, this.names);
    this.owners = owners;
    const how = { settings: this.settings, identities: this.identities };
    this.servers = judgeServers(listed, pins, how);
    const { libraryPins, verdicts } = judgeTools(descriptors, pins, { ...how, servers: this.servers });
    this.verdicts = verdicts;
    const first = !this.inForce.started;
    const tools = descriptors.map((d) => d.tool);
    const result = this.inForce.admit(tools, libraryPins);
    if (!result.ok) return { ok: false, error: describeError(result.error) };
    return { ok: true, value: this.outcome(result.value, first, excluded, shadowed) };
  }

  private outcome(
    changes: AdmissionChanges,
    first: boolean,
    excluded: readonly LeftOut[],
    shadowed: readonly Shadowed[],
  ): Admission {
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
    const held = this.heldTools();
    const servers = [...this.servers.values()];
    return {
      first,
      accepted: [...bundle.accepted],
      added: changes.added,
      removed: changes.removed,
      changed: held.filter((h) => h.code === "tool_changed").map((h) => ({ name: h.name, fields: h.fields })),
      held,
      approved: changes.approved,
      quarantined,
      excluded: all,
      hiddenText,
      closedArguments,
      heldServers: servers.flatMap((v) => (v.held === undefined ? [] : [v.held])),
      versionBumps: [...this.servers].flatMap(([server, v]) => (v.bump === undefined ? [] : [{ server, ...v.bump }])),
      shadowed,
    };
  }
}
