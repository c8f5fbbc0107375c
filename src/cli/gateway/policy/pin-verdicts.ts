/**
 * The last admission's judgement of pins (pin-judging.ts), read against what the library then admitted and held: the
 * pins trust on first use records, the servers' identity pins to write, and every held server and tool with the
 * definition it has now. That definition is what the ledger records, review prints and approve pins, so it is made
 * here once, and a person approves exactly what they read.
 */

import type { HeldTool } from "../../../index.js";
import type { HeldServer, ServerVerdict, ToolVerdict } from "./pin-judging.js";
import type { HeldDefinition } from "./pin-ledger.js";
import { serverPinName } from "./server-identity.js";

/** What the library admitted and holds (the catalog in force), as the verdicts are read against it. */
export interface Admitted {
  readonly accepted: readonly string[];
  readonly held: readonly HeldTool[];
  /** The library's pins in force. */
  readonly pins: Readonly<Record<string, string>>;
  /** What approving a tool the library rejected (a held one) pins. */
  rejectedPin(name: string): string | undefined;
}

export class PinVerdicts {
  constructor(
    /** Each server's identity judged, by server. */
    private readonly servers: ReadonlyMap<string, ServerVerdict> = new Map(),
    /** Each listed tool's pin judged, by listed name. */
    private readonly tools: ReadonlyMap<string, ToolVerdict> = new Map(),
  ) {}

  /**
   * The pins of the admitted tools, each its listed canonical text (`_meta` included): what trust on first use
   * records.
   */
  pins(admitted: Admitted): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of admitted.accepted) {
      const canonical = this.tools.get(name)?.canonical ?? admitted.pins[name];
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

  /** Servers held: their identity differs from its pin (or has none under enforce). */
  heldServers(): HeldServer[] {
    return [...this.servers.values()].flatMap((v) => (v.held === undefined ? [] : [v.held]));
  }

  /** Servers whose `serverInfo.version` alone differs from their pin: reported, never held. */
  versionBumps(): { server: string; from: string; to: string }[] {
    return [...this.servers].flatMap(([server, v]) => (v.bump === undefined ? [] : [{ server, ...v.bump }]));
  }

  /**
   * The tools held on their own account, as the gateway reports them: the library's hold, with the pointers the
   * gateway found in `_meta` and without the tools held only because their server is.
   */
  heldTools(admitted: Admitted): HeldTool[] {
    const out: HeldTool[] = [];
    for (const h of admitted.held) {
      const v = this.tools.get(h.name);
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
  held(admitted: Admitted, owners: ReadonlyMap<string, string>): Map<string, HeldDefinition> {
    const out = new Map<string, HeldDefinition>();
    for (const [server, v] of this.servers) {
      if (v.held !== undefined)
        out.set(serverPinName(server), { server, code: v.held.code, fields: v.held.fields, canonical: v.identity });
    }
    for (const h of this.heldTools(admitted)) {
      const canonical = this.tools.get(h.name)?.canonical ?? admitted.rejectedPin(h.name);
      if (canonical !== undefined) {
        out.set(h.name, { server: owners.get(h.name) ?? "", code: h.code, fields: h.fields, canonical });
      }
    }
    return out;
  }
}
