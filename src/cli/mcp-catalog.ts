/**
 * `admit --mcp "<command> [args…]"`: spawns a stdio MCP server with the MCP SDK 1.x client, lists its tools
 * (`tools/list`, following `nextCursor`) and turns them into tool descriptors (`revision`: the server's version or
 * `--revision`; `backend`: the server's name). Bounded: connecting and listing share one deadline, and the child is
 * stopped by its pid whatever happens. The SDK is loaded on demand: it is not a dependency of this package.
 */

import { BackplaneJsonSchemaValidator } from "../adapters/mcp.js";
import { errorMessage, isInstance } from "../engine/errors.js";
import { CliError, errorCode, ExitCode, oneLine } from "./args.js";
import { splitCommandLine } from "./command-line.js";
import { packageInfo } from "./package-info.js";
import { word } from "./terminal-text.js";

export interface McpCatalog {
  /** The listed tools, each with `revision` and `backend` added. */
  tools: unknown[];
  /** The backend the tools name: the server's name. */
  backend: string;
  /** How the report names the server. */
  source: string;
}

export interface McpOptions {
  /** The budget for spawning, initialising and listing, in milliseconds. */
  timeoutMs: number;
  /** Overrides the server's version as every tool's revision. */
  revision?: string;
  /** The input cap (`--max-input-bytes`): on each message the server sends, and on the listed tools' JSON in all. */
  maxBytes: number;
}

const SDK = "@modelcontextprotocol/sdk";
/** How much of the server's stderr is kept to explain a failure. */
const STDERR_TAIL = 2_000;
/** How long a server may take to exit after its stdin is closed (after a failure: after SIGTERM). */
const EXIT_GRACE_MS = 2_000;
const FAILED_EXIT_GRACE_MS = 500;

type ClientModule = typeof import("@modelcontextprotocol/sdk/client/index.js");
type StdioModule = typeof import("@modelcontextprotocol/sdk/client/stdio.js");
type Client = InstanceType<ClientModule["Client"]>;

class TimedOut extends Error {}

/** The input cap was hit: a limit, so there is no verdict (exit 3). */
function overCap(server: string, maxBytes: number, what: string): CliError {
  return new CliError(
    `the MCP server ${server} sent ${what} larger than ${maxBytes} bytes (the input cap; --max-input-bytes)`,
    ExitCode.executionFailure,
  );
}

export async function listMcpCatalog(commandLine: string, options: McpOptions): Promise<McpCatalog> {
  const words = splitCommandLine(commandLine);
  const [command, ...args] = words;
  const server = shorten(words.join(" "));
  const { Client, StdioClientTransport } = await loadSdk();
  const transport = new StdioClientTransport({
    command: command!,
    args,
    env: inheritedEnv(),
    stderr: "pipe",
    maxBufferSize: options.maxBytes,
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    stderr = (stderr + String(chunk)).slice(-STDERR_TAIL);
  });
  const client = new Client(
    { name: "backplane-schema", version: packageInfo().version },
    { jsonSchemaValidator: new BackplaneJsonSchemaValidator() },
  );
  // The SDK reports a message over maxBufferSize to onerror, then closes the connection.
  let overflowed = false;
  client.onerror = (e) => {
    if (/exceeded maximum size/.test(errorMessage(e))) overflowed = true;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), options.timeoutMs);
  });
  let listed = false;
  try {
    const listing = (async () => {
      await client.connect(transport);
      return listAll(client, server, options.maxBytes);
    })();
    const tools = await Promise.race([listing, deadline]);
    listed = true;
    return describe(tools, client, options);
  } catch (e) {
    if (isInstance(e, CliError)) throw e;
    if (overflowed) throw overCap(server, options.maxBytes, "a message");
    throw new CliError(failure(e, server, options.timeoutMs, stderr));
  } finally {
    clearTimeout(timer);
    await stop(client, transport.pid, listed);
  }
}

async function loadSdk(): Promise<{
  Client: ClientModule["Client"];
  StdioClientTransport: StdioModule["StdioClientTransport"];
}> {
  try {
    const [client, stdio] = await Promise.all([
      import("@modelcontextprotocol/sdk/client/index.js"),
      import("@modelcontextprotocol/sdk/client/stdio.js"),
    ]);
    return { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport };
  } catch (e) {
    const message = errorMessage(e);
    if (errorCode(e) === "ERR_MODULE_NOT_FOUND" && message.includes(`'${SDK}'`))
      throw new CliError(`admit --mcp needs the MCP SDK, which is not installed: npm install ${SDK}`);
    throw new CliError(`admit --mcp cannot load ${SDK}: ${oneLine(message)}`);
  }
}

/**
 * Every page of `tools/list`; a server that repeats a cursor would never finish, and one that keeps sending new
 * pages is stopped when their tools' JSON passes `maxBytes`.
 */
async function listAll(client: Client, server: string, maxBytes: number): Promise<unknown[]> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    bytes += Buffer.byteLength(JSON.stringify(page.tools));
    if (bytes > maxBytes) throw overCap(server, maxBytes, "tools");
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new CliError(`the MCP server repeated the tools/list cursor ${JSON.stringify(cursor)}`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

function describe(tools: unknown[], client: Client, options: McpOptions): McpCatalog {
  const server = client.getServerVersion();
  const backend = server?.name ?? "";
  if (backend === "") throw new CliError("the MCP server reported no name to use as the backend");
  const revision = options.revision ?? server?.version ?? "";
  if (revision === "") throw new CliError(`the MCP server ${backend} reported no version: pass --revision`);
  return {
    tools: tools.map((tool) => ({ ...(tool as object), revision, backend })),
    backend,
    source: `MCP server ${word(backend)}${server?.version ? ` ${word(server.version)}` : ""}`,
  };
}

/** How messages name the server: its command line, quoted, at most 100 characters. */
function shorten(commandLine: string): string {
  return JSON.stringify(commandLine.length > 100 ? commandLine.slice(0, 99) + "…" : commandLine);
}

function failure(e: unknown, command: string, timeoutMs: number, stderr: string): string {
  if (isInstance(e, TimedOut))
    return `the MCP server ${command} did not list its tools within ${timeoutMs} ms (--timeout-ms)`;
  const code = isInstance(e, Error) ? errorCode(e) : undefined;
  if (code === "ENOENT") return `cannot start the MCP server ${command}: no such command`;
  if (code === "EACCES") return `cannot start the MCP server ${command}: permission denied`;
  const said = oneLine(stderr);
  const tail = said === "" ? "" : `; its stderr ended with: ${said.slice(-300)}`;
  const reason = oneLine(errorMessage(e));
  return `the MCP server ${command} failed before listing its tools: ${reason}${tail}`;
}

/**
 * Closes the connection (which ends the child's stdin) and makes sure the child is gone: after a failure it is sent
 * SIGTERM first; whichever way, one that is still alive after a grace period is killed by its pid.
 */
async function stop(client: Client, pid: number | null, graceful: boolean): Promise<void> {
  if (pid !== null && !graceful) signal(pid, "SIGTERM");
  const closing = client.close().catch(() => undefined);
  if (pid !== null && !(await exits(pid, graceful ? EXIT_GRACE_MS : FAILED_EXIT_GRACE_MS))) signal(pid, "SIGKILL");
  await closing;
}

async function exits(pid: number, withinMs: number): Promise<boolean> {
  for (let waited = 0; waited < withinMs; waited += 25) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !alive(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** The server runs with the user's environment, as it would from their shell (the SDK's default keeps only a few). */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  return env;
}
