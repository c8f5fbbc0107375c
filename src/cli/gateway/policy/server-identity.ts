/**
 * A server's identity (docs/guide/gateway.md "Server identity"): what the configuration launches (the command, its
 * arguments, the names of the environment variables it is given, its working directory; or the URL without its
 * credentials and query values, and the names of the headers sent) and what the server says it is when it
 * initialises (`serverInfo.name` and the protocol version negotiated). It is pinned beside the tools, under
 * `server:<name>` (no tool name holds `:`), as the canonical text of that object: a server that now launches or calls
 * itself otherwise is held with its tools until a person approves it. `serverInfo.version` is recorded too but never
 * holds: servers bump it with every release, and their tools, which are pinned, say what changed.
 */

import type { ServerConfig } from "../config.js";
import type { Sdk, Transport } from "../sdk.js";
import { ModernHttpTransport } from "../upstream/modern-http.js";
import { canonicalJson, differences } from "./listed-identity.js";

/** The protocol version a stateless (2026-07-28) server speaks, which no `initialize` negotiates. */
const MODERN = "2026-07-28";

/** What a server said it is when it initialised. */
export interface ServerSays {
  readonly name: string;
  readonly version: string;
  /**
   * The protocol version negotiated at `initialize` (every version before 2026-07-28 initialises), or `2026-07-28` for
   * a server the era probe found stateless: a server that moves from one era to the other is held.
   */
  readonly protocolVersion: string;
}

/** The pointer of the one part of an identity that never holds. */
const VERSION_POINTER = "/says/version";

/** The pin name of a server's identity. */
export function serverPinName(server: string): string {
  return `server:${server}`;
}

/** What a configuration launches, values of secrets left out. */
function launch(config: ServerConfig): Record<string, unknown> {
  if (config.kind === "stdio") {
    return {
      transport: "stdio",
      command: config.command,
      args: [...config.args],
      env: Object.keys(config.env).sort(),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    };
  }
  const { url } = config;
  return {
    transport: "http",
    url: `${url.protocol}//${url.host}${url.pathname}`,
    query: [...new Set(url.searchParams.keys())].sort(),
    headers: Object.keys(config.headers)
      .map((h) => h.toLowerCase())
      .sort(),
  };
}

/** The canonical text of a server's identity: what its pin records. */
export function identityText(config: ServerConfig, says: ServerSays): string {
  return canonicalJson({
    launch: launch(config),
    says: { name: says.name, version: says.version, protocolVersion: says.protocolVersion },
  });
}

/** What a server's pin and its identity now differ in: the pointers, and whether only the version differs. */
export function identityChanges(pin: string, now: string): { fields: string[]; versionOnly: boolean } {
  let fields: string[];
  try {
    fields = differences(JSON.parse(pin), JSON.parse(now), "");
  } catch {
    fields = [""];
  }
  return { fields, versionOnly: fields.length > 0 && fields.every((f) => f === VERSION_POINTER) };
}

/**
 * The SDK with a client that tells `observe` what each server said at `initialize`: its `serverInfo` and the
 * protocol version it negotiated, which the SDK's client hands its transport (`setProtocolVersion`) and does not
 * keep. The upstream connection is the SDK's own; only that hand-over is watched.
 */
function observingSdk(sdk: Sdk, observe: (says: ServerSays) => void): Sdk {
  class ObservingClient extends sdk.Client {
    override async connect(transport: Transport, options?: Parameters<InstanceType<Sdk["Client"]>["connect"]>[1]) {
      let protocolVersion = "";
      const handOver = transport.setProtocolVersion?.bind(transport);
      transport.setProtocolVersion = (version: string) => {
        protocolVersion = version;
        handOver?.(version);
      };
      await super.connect(transport, options);
      const info = this.getServerVersion();
      // A 2026-07-28 server is played as a 2025-11-25 session by its transport: its era is what it speaks.
      if (transport instanceof ModernHttpTransport) protocolVersion = MODERN;
      observe({ name: info?.name ?? "", version: info?.version ?? "", protocolVersion });
    }
  }
  // The subclass is the SDK's client with its default type parameters, which is what the gateway constructs.
  return { ...sdk, Client: ObservingClient as unknown as Sdk["Client"] };
}

/** What each configured server said it is at its last `initialize`, and its identity from that. */
export class ServerIdentities {
  private readonly said = new Map<string, ServerSays>();

  constructor(private readonly configs: readonly ServerConfig[]) {}

  /** The SDK a server's upstream is given: its client records what the server says. */
  sdkFor(sdk: Sdk, server: string): Sdk {
    return observingSdk(sdk, (says) => this.said.set(server, says));
  }

  /** The server's identity (canonical text), once it has initialised. */
  identity(server: string): string | undefined {
    const config = this.configs.find((c) => c.name === server);
    const says = this.said.get(server);
    return config === undefined || says === undefined ? undefined : identityText(config, says);
  }

  /** What the server said it is, once it has initialised. */
  says(server: string): ServerSays | undefined {
    return this.said.get(server);
  }
}
