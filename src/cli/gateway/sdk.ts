/**
 * The MCP TypeScript SDK 1.x (`@modelcontextprotocol/sdk`), loaded on demand: it is an optional peer dependency of
 * this package, never a runtime dependency of the library, and a missing SDK is one line saying what to install.
 */

import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage } from "../../engine/errors.js";
import { CliError, errorCode, oneLine } from "../args.js";

const SDK = "@modelcontextprotocol/sdk";

type ClientModule = typeof import("@modelcontextprotocol/sdk/client/index.js");
type ServerModule = typeof import("@modelcontextprotocol/sdk/server/index.js");
type StdioModule = typeof import("@modelcontextprotocol/sdk/client/stdio.js");
type HttpClientModule = typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
type HttpServerModule = typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
type TypesModule = typeof import("@modelcontextprotocol/sdk/types.js");

/** The parts of the SDK the gateway uses. */
export interface Sdk {
  readonly Client: ClientModule["Client"];
  readonly Server: ServerModule["Server"];
  readonly McpError: TypesModule["McpError"];
  readonly types: TypesModule;
  readonly defaultEnvironment: StdioModule["getDefaultEnvironment"];
  readonly StreamableHTTPClientTransport: HttpClientModule["StreamableHTTPClientTransport"];
}

export type SdkClient = InstanceType<Sdk["Client"]>;
type SdkServer = InstanceType<Sdk["Server"]>;
export type Transport = import("@modelcontextprotocol/sdk/shared/transport.js").Transport;
export type JSONRPCMessage = import("@modelcontextprotocol/sdk/types.js").JSONRPCMessage;
export type RequestExtra = Parameters<NonNullable<SdkServer["fallbackRequestHandler"]>>[1];

/** A request or notification as a client (or a server) sent it: its method and its params, read as sent. */
export interface Message {
  readonly method: string;
  readonly params?: unknown;
}
export type HttpServerTransport = InstanceType<HttpServerModule["StreamableHTTPServerTransport"]>;

/**
 * The folder to run `npm install` in to put the SDK beside this package: the project whose node_modules holds the
 * package (`<prefix>/lib` for a global install), or the package's own folder (a clone). This file is
 * `<package>/dist/cli/gateway/sdk.js`.
 */
export function installFolder(here = fileURLToPath(import.meta.url)): string {
  const pkg = dirname(dirname(dirname(dirname(here))));
  return basename(dirname(pkg)) === "node_modules" ? dirname(dirname(pkg)) : pkg;
}

function missing(e: unknown, what: string): CliError {
  const message = errorMessage(e);
  if (errorCode(e) === "ERR_MODULE_NOT_FOUND" && message.includes(`'${SDK}`)) {
    return new CliError(
      `${what} needs the MCP SDK 1.x, which is not installed beside this package: ` +
        `npm install ${SDK}@1 in ${installFolder()} (a global install: npm install -g ${SDK}@1)`,
    );
  }
  return new CliError(`${what} cannot load ${SDK}: ${oneLine(message)}`);
}

/** The SDK's client, server and types; throws a one-line `CliError` (exit 2) when it is not installed. */
export async function loadSdk(what: string): Promise<Sdk> {
  try {
    const [client, server, stdio, http, types] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
      import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
      import("@modelcontextprotocol/sdk/types.js"),
    ]);
    return {
      Client: client.Client,
      Server: server.Server,
      McpError: types.McpError,
      types,
      defaultEnvironment: stdio.getDefaultEnvironment,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    };
  } catch (e) {
    throw missing(e, what);
  }
}

/** The SDK's Streamable HTTP server transport (only `--http` needs it). */
export async function loadHttpServerTransport(): Promise<HttpServerModule["StreamableHTTPServerTransport"]> {
  try {
    return (await import("@modelcontextprotocol/sdk/server/streamableHttp.js")).StreamableHTTPServerTransport;
  } catch (e) {
    throw missing(e, "gateway --http");
  }
}

/**
 * A result "schema" that returns what the peer sent, untouched: the SDK's own result schemas copy objects key by key,
 * which reorders nothing but loses an own `__proto__` member (an ordinary JSON name), and strip fields they do not
 * know. The gateway checks what it must itself (`Execution.invoke`, `ElicitationSchema`).
 */
export const AS_SENT = Object.freeze({
  safeParse: (data: unknown) => ({ success: true as const, data }),
}) as unknown as Parameters<SdkClient["request"]>[1];
