/**
 * How an upstream reaches its server: the seam between one server's lifecycle (upstream.ts) and what carries its
 * messages. The gateway's connector starts a child over stdio (transport/child-transport.ts) or opens a Streamable
 * HTTP connection (http-upstream.ts; modern-http.ts for a server of MCP 2026-07-28); a test hands the upstream one
 * side of the SDK's in-memory linked pair instead, with a real SDK server on the other side, and the same lifecycle
 * runs over it.
 */

import type { ServerConfig } from "../config.js";
import type { Sdk, Transport } from "../sdk.js";
import { spawnServer } from "../transport/child-transport.js";
import type { LineFault } from "../transport/line-transport.js";
import { isJsonRpcMessage } from "../transport/jsonrpc.js";
import { httpTransport } from "./http-upstream.js";
import { ModernHttpTransport } from "./modern-http.js";
import { speaksModern } from "./stateless-client.js";

/** How long the era probe of an HTTP server may take before it is taken for a 2025-11-25 server. */
const ERA_PROBE_MS = 5_000;

/** What a connection reports about its server while it runs. */
interface ConnectionHooks {
  /** Something the server sent that is not a bounded JSON-RPC message (stdout-noise.ts judges it). */
  readonly onFault: (fault: LineFault) => void;
  /** One line the server wrote on its stderr (a child's). */
  readonly onStderr: (line: string) => void;
}

/** One connection to a server. */
export interface Connection {
  /** The transport the gateway's SDK client connects over (not started yet). */
  readonly transport: Transport;
  /** A child's exit, with how it exited; absent where no process of the gateway's is behind the transport. */
  readonly exited?: Promise<string>;
  /** Ends what is behind the transport (a child is stopped by its pid); the transport is closed by its client. */
  stop(): Promise<void>;
}

/** Opens a connection to `config`'s server; rejects when it cannot be started (`code` ENOENT, EACCES, …). */
export type Connector = (config: ServerConfig, hooks: ConnectionHooks) => Promise<Connection>;

/** What the process and HTTP connections are bounded by. */
export interface ConnectorBounds {
  readonly maxMessageBytes: number;
  /** The most bytes waiting to be written to a child's stdin (`--max-queued-bytes`; line-writer.ts). */
  readonly maxQueuedBytes: number;
}

/** The gateway's own connector: a child process for a stdio server, the SDK's HTTP client transport for a URL. */
export function processConnector(sdk: Sdk, bounds: ConnectorBounds): Connector {
  return async (config, hooks) => {
    if (config.kind !== "stdio") {
      // The era is found once per start: a server that answers server/discover speaks 2026-07-28 (modern-http.ts).
      const headers = { ...config.headers };
      const transport = (await speaksModern(config.url, headers, ERA_PROBE_MS))
        ? new ModernHttpTransport(config.url, headers, bounds.maxMessageBytes)
        : httpTransport(sdk, config, bounds.maxMessageBytes, hooks.onFault);
      return { transport, stop: async () => undefined };
    }
    const child = await spawnServer(config, {
      maxMessageBytes: bounds.maxMessageBytes,
      maxQueuedBytes: bounds.maxQueuedBytes,
      isMessage: isJsonRpcMessage,
      baseEnv: sdk.defaultEnvironment(),
      onFault: hooks.onFault,
      onStderr: hooks.onStderr,
    });
    return { transport: child.transport, exited: child.exited, stop: () => child.stop() };
  };
}
