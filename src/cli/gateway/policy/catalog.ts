/**
 * The gateway's catalog (docs/guide/gateway.md §Admission): the tools of every server that is up, admitted as one
 * batch, each admission in four steps kept in their own files: the listings read under the names clients are shown
 * (listed-tools.ts), the pins judged (pin-judging.ts), the batch admitted through the catalog in force, a
 * `Conversation` (catalog-in-force.ts), and what it did reported (admission.ts). It answers the rest of the gateway
 * from the last admission: the tools to list and the call path, the server each listed name belongs to, and the pins
 * and held definitions the ledger records (pin-verdicts.ts).
 */

import type { ExecutionError, ExecutionHost, ProviderTool, Result, ToolCall } from "../../../index.js";
import { describeError } from "../../args.js";
import { admissionOf, type Admission } from "./admission.js";
import { CatalogInForce, type CatalogSettings } from "./catalog-in-force.js";
import { readListings, type ListedServer } from "./listed-tools.js";
import { namesFor, type Names } from "./names.js";
import { judgeServers, judgeTools } from "./pin-judging.js";
import type { HeldDefinition } from "./pin-ledger.js";
import { PinVerdicts } from "./pin-verdicts.js";
import type { ServerIdentities } from "./server-identity.js";

export type { Admission, ClosedTool } from "./admission.js";
export type { CatalogSettings } from "./catalog-in-force.js";
export type { ListedServer } from "./listed-tools.js";

export class GatewayCatalog {
  private readonly inForce: CatalogInForce;
  /** Listed name → server, for every tool of the last listing (admitted, held or left out). */
  private owners = new Map<string, string>();
  /** The last admission's judgement of pins. */
  private verdicts = new PinVerdicts();

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

  /** What trust on first use records: each admitted tool's listed canonical text (`_meta` included). */
  get pins(): Record<string, string> {
    return this.verdicts.pins(this.inForce);
  }

  /** The servers' identity pins to write (first seen, or their version alone moved). */
  serverPins(): { added: Record<string, string>; refreshed: Record<string, string> } {
    return this.verdicts.serverPins();
  }

  /** Each held server and tool by pin name, with the definition approving it pins. */
  held(): Map<string, HeldDefinition> {
    return this.verdicts.held(this.inForce, this.owners);
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
    const read = readListings(listed, this.names);
    this.owners = read.owners;
    const how = { settings: this.settings, identities: this.identities };
    const servers = judgeServers(listed, pins, how);
    const { libraryPins, verdicts } = judgeTools(read.descriptors, pins, { ...how, servers });
    this.verdicts = new PinVerdicts(servers, verdicts);
    const first = !this.inForce.started;
    const tools = read.descriptors.map((d) => d.tool);
    const result = this.inForce.admit(tools, libraryPins);
    if (!result.ok) return { ok: false, error: describeError(result.error) };
    const judged = {
      held: this.verdicts.heldTools(this.inForce),
      heldServers: this.verdicts.heldServers(),
      versionBumps: this.verdicts.versionBumps(),
    };
    return { ok: true, value: admissionOf(result.value, first, read, judged) };
  }
}
