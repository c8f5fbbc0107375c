/**
 * An MCP 2026-07-28 (stateless) test server on SDK 2.x (`@modelcontextprotocol/server` 2.4.0), for the conformance
 * suite's 2026-07-28 server scenarios and the gateway's era-combination tests, serving 2025-11-25 clients too. Over HTTP
 * (modern-server-http.ts) it is the SDK's `createMcpHandler` behind Node's http server, with 2025 clients in sessions
 * of their own (`--legacy sessions`, the default) or on the SDK's stateless legacy leg (`--legacy stateless`); over
 * stdio it is the SDK's `serveStdio` (an `initialize` pins a 2025 session, an envelope pins the modern era).
 *
 * `node modern-server.js serve http [--name N] [--legacy sessions|stateless]` listens on a free loopback port and
 * prints `modern MCP server listening at http://127.0.0.1:<port>/mcp`; `node modern-server.js serve stdio [--name N]`
 * speaks on stdin/stdout. Imported, or run without `serve` (as the test runner does), it does nothing but export
 * {@link startModernServer} and {@link modernServerEntry}. The tools (modern-server-tools.ts), in listed order (the
 * suite's header scenario calls the first one with `{}`):
 * - `echo` `{text?}`: `echo: <text>`.
 * - `ask_name`: `input_required` with a form elicitation (`name`) and an HMAC-sealed `requestState`; the retry with an
 *   accepted `{name}` and the state answers `Hello, <name>!`. A retry without them asks again.
 * - `ask_model` `{prompt?}`: `input_required` with a sampling request; the retry answers `The model said: <text>`.
 * - `add` `{a, b, violate?}`: `structuredContent: {sum}` under an `outputSchema` requiring an integer `sum`;
 *   `violate: true` answers `{sum: "<a+b>"}` (a string), which the SDK lets through because this server's output
 *   validator accepts anything: the check under test is the gateway's, not the server's.
 * - `region_info` `{region, priority?}`: `region` carries `x-mcp-header: Region`, `priority` (integer)
 *   `x-mcp-header: Priority`; the SDK checks `Mcp-Param-Region` / `Mcp-Param-Priority` against the body (`-32020`).
 * - `change_tools` (and `test_trigger_tool_change`, the suite's name for it): adds a tool `extra_<n>` (at most
 *   64 per process, then an error result) and tells `subscriptions/listen` streams
 *   `notifications/tools/list_changed` (and each 2025 session, on its GET stream); `test_trigger_prompt_change` does the same for prompts (`extra_prompt_<n>`).
 * - `test_missing_capability`: asks for sampling, so a request that did not declare it gets `-32021`.
 * - `test_streaming_elicitation`: `input_required` with an elicitation (never a standalone request on the stream).
 * - `test_logging_tool`: logs three messages; the SDK sends them only when the request's `_meta` names a `logLevel`.
 * Prompt `greeting` `{name}`; resource `test://info` (text).
 */

import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { serveHttp, type LegacyMode } from "./modern-server-http.js";
import { build, registerExtraPrompt, registerExtraTool } from "./modern-server-tools.js";

function serveOnStdio(name: string): void {
  // One instance per connection: it registers what it adds itself, and the SDK tells the listen streams.
  serveStdio(() =>
    build(name, (server, kind, added) => {
      if (kind === "tools") registerExtraTool(server, added);
      else registerExtraPrompt(server, added);
    }),
  );
}

/** The compiled script, for `{ command: process.execPath, args: [modernServerEntry, "serve", "stdio"] }`. */
export const modernServerEntry = fileURLToPath(import.meta.url);

/** A running HTTP modern server: its endpoint, everything it wrote, and `stop()`. */
export interface ModernServer {
  readonly url: string;
  readonly pid: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node modern-server.js serve http` as a child process and resolves with its endpoint once it listens (within
 * `timeoutMs`); rejects, with the child stopped, if it exits or does not listen in time.
 */
export async function startModernServer(
  options: { name?: string; legacy?: LegacyMode; timeoutMs?: number } = {},
): Promise<ModernServer> {
  const name = options.name ?? "modern-test-server";
  const args = [modernServerEntry, "serve", "http", "--name", name, "--legacy", options.legacy ?? "sessions"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-200_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the modern server did not listen:\n${output}`)),
      options.timeoutMs ?? 30_000,
    );
    const look = () => {
      const found = /listening at (\S+)/.exec(output)?.[1];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on("data", look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the modern server exited:\n${output}`));
    });
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { url, pid: child.pid ?? 0, output: () => output, stop };
}

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, transport, ...rest] = process.argv.slice(2);
  const name = option(rest, "--name") ?? "modern-test-server";
  const legacy = option(rest, "--legacy") === "stateless" ? "stateless" : "sessions";
  if (command === "serve" && transport === "http") await serveHttp(name, legacy);
  else if (command === "serve" && transport === "stdio") serveOnStdio(name);
}
