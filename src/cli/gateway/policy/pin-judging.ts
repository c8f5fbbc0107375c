/**
 * The gateway's own judgement of pins, before the library admits (catalog.ts): each server's identity against its
 * `server:<name>` pin, and each listed tool's canonical text (`_meta` included) against its pin, with the pins the
 * library is then given so that it holds, admits or says where a definition changed.
 */

import { ToolCatalog, type Limits } from "../../../index.js";
import { canonicalJson, listedCanonical, metaChanges, pins as pinsExactly, textDigest } from "./listed-identity.js";
import type { Descriptor, ListedServer } from "./listed-tools.js";
import { identityChanges, serverPinName, type ServerIdentities } from "./server-identity.js";

/**
 * The pin the gateway gives the library for a tool it holds itself (its `_meta` changed, or its server is held): a
 * digest no definition has (the SHA-256 of the empty text, which no canonical definition is).
 */
const HOLD = textDigest("");

/** What judging needs: the pins policy and the servers' identities. */
export interface Judging {
  readonly settings: {
    readonly limits?: Partial<Limits>;
    readonly unpinned: "admit" | "hold";
    readonly unpinnedServers?: "admit" | "hold";
  };
  /** What each server said it is; without it, servers' identities are not judged. */
  readonly identities?: ServerIdentities | undefined;
}

/** A server whose identity is held, and where it differs from its pin. */
export interface HeldServer {
  readonly server: string;
  /** `server_changed` or `server_unpinned` (under `--pins-mode enforce`). */
  readonly code: "server_changed" | "server_unpinned";
  readonly fields: readonly string[];
}

/** How the gateway judged one listed tool's pin before the library admitted it. */
export interface ToolVerdict {
  /** Its listed canonical text (`_meta` included), when it has one. */
  readonly canonical: string | undefined;
  /** Why it is held on its own account, if it is: the code and the pointers the gateway found. */
  readonly own: { readonly code: "tool_changed" | "tool_unpinned"; readonly fields: readonly string[] } | undefined;
  /** Whether the library was given the pin itself (and so found the model-facing pointers). */
  readonly passedPin: boolean;
  /** Whether its server is held. */
  readonly withServer: boolean;
}

/** How the gateway judged one server's identity. */
export interface ServerVerdict {
  readonly identity: string;
  readonly held?: HeldServer;
  /** Pinned on first use, or its pin's version brought up to date (a version bump). */
  readonly record?: boolean;
  readonly bump?: { readonly from: string; readonly to: string };
}

function own(pins: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(pins, name) ? pins[name] : undefined;
}

/** A pinned definition without its `_meta`, as the library's canonical text writes it (undefined: unreadable). */
function withoutMeta(pin: string): string | undefined {
  try {
    const definition = JSON.parse(pin) as Record<string, unknown>;
    delete definition["_meta"];
    return canonicalJson(definition);
  } catch {
    return undefined;
  }
}

/** The version a server's identity pin recorded. */
function pinnedVersion(pin: string): string {
  try {
    const says = (JSON.parse(pin) as { says?: { version?: unknown } }).says;
    return typeof says?.version === "string" ? says.version : "";
  } catch {
    return "";
  }
}

/** The catalog in force and how each listing is admitted against the pins. */
export function judgeServers(
  listed: readonly ListedServer[],
  pins: Readonly<Record<string, string>>,
  how: Judging,
): Map<string, ServerVerdict> {
  const out = new Map<string, ServerVerdict>();
  for (const { name: server } of listed) {
    const identity = how.identities?.identity(server);
    if (identity === undefined) continue;
    const pin = own(pins, serverPinName(server));
    if (pin === undefined) {
      const held = { server, code: "server_unpinned" as const, fields: [] };
      const policy = how.settings.unpinnedServers ?? how.settings.unpinned;
      out.set(server, policy === "hold" ? { identity, held } : { identity, record: true });
    } else if (pinsExactly(pin, identity)) out.set(server, { identity });
    else {
      const { fields, versionOnly } = identityChanges(pin, identity);
      const to = how.identities?.says(server)?.version ?? "";
      out.set(
        server,
        versionOnly
          ? { identity, record: true, bump: { from: pinnedVersion(pin), to } }
          : { identity, held: { server, code: "server_changed", fields } },
      );
    }
  }
  return out;
}

/**
 * Each listed tool's pin against its listed canonical text (`_meta` included), and the pins the library is given:
 * the library's own canonical text where the gateway's pin holds (so the library admits it), the pin itself where
 * the definition a model reads changed (so the library says where), and a pin no definition has where the gateway
 * holds the tool itself (its `_meta` changed, or its server is held).
 */
export function judgeTools(
  descriptors: readonly Descriptor[],
  pins: Readonly<Record<string, string>>,
  how: Judging & { readonly servers: ReadonlyMap<string, ServerVerdict> },
): { libraryPins: Record<string, string>; verdicts: Map<string, ToolVerdict> } {
  const libraryPins: Record<string, string> = {};
  const verdicts = new Map<string, ToolVerdict>();
  const give = (name: string, pin: string | undefined) => {
    if (pin !== undefined) Object.defineProperty(libraryPins, name, { value: pin, enumerable: true });
  };
  for (const d of descriptors) {
    const withServer = how.servers.get(d.server)?.held !== undefined;
    const tool = { ...d.tool, name: d.listed };
    const pin = own(pins, d.listed);
    let library: string;
    let canonical: string;
    try {
      library = ToolCatalog.canonical(tool, how.settings.limits);
      canonical = listedCanonical(tool, how.settings.limits, library);
    } catch {
      // No canonical form: the library excludes the tool and says why.
      verdicts.set(d.listed, { canonical: undefined, own: undefined, passedPin: false, withServer });
      give(d.listed, pin);
      continue;
    }
    let verdict: ToolVerdict;
    if (pin === undefined) {
      const unpinned = how.settings.unpinned === "hold" ? { code: "tool_unpinned" as const, fields: [] } : undefined;
      verdict = { canonical, own: unpinned, passedPin: false, withServer };
      give(d.listed, withServer ? HOLD : unpinned === undefined ? library : undefined);
    } else if (pinsExactly(pin, canonical)) {
      verdict = { canonical, own: undefined, passedPin: false, withServer };
      give(d.listed, withServer ? HOLD : library);
    } else {
      const digest = pin.startsWith("sha256-");
      // The library says which pointers a model reads changed; the gateway says which of `_meta`.
      const passedPin = !digest && withoutMeta(pin) !== library;
      const fields = digest ? [""] : metaChanges(pin, canonical);
      verdict = { canonical, own: { code: "tool_changed", fields }, passedPin, withServer };
      give(d.listed, passedPin ? pin : HOLD);
    }
    verdicts.set(d.listed, verdict);
  }
  return { libraryPins, verdicts };
}
