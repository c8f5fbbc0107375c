/**
 * Starting `backplane-schema gateway` for the live tests: a configuration file of real servers (the reference ones
 * and `misbehaving-server.js`), the gateway spawned as its client would spawn it, and a real SDK 1.x client over its
 * stdio. Every wait is bounded; the gateway and its temp directory are gone when a test is done.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ToolListChangedNotificationSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { answeringClient } from "../cli/gateway/answering-client.js";
import { alive, script } from "./servers.js";
import { until } from "../until.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The CLI as the tests build it. */
export const CLI = join(here, "..", "..", "src", "cli", "main.js");
/** The misbehaving test server. */
export const MISBEHAVING = join(here, "misbehaving-server.js");

/** A `mcpServers` entry for the misbehaving server under `name`. */
export function misbehaving(name: string, ...extra: string[]): Record<string, unknown> {
  return { command: process.execPath, args: [MISBEHAVING, "serve", name, ...extra] };
}

/** A `mcpServers` entry for a reference server (run from node_modules, with its own temp directory). */
export function reference(pkg: string, root: string, args: string[] = [], env: Record<string, string> = {}) {
  return { command: process.execPath, args: [script(pkg), ...args], env, cwd: root };
}

export interface RunningGateway {
  readonly client: Client;
  readonly dir: string;
  /** Everything the gateway wrote on stderr so far. */
  stderr(): string;
  /** Resolves once stderr matches (bounded). */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** How many `tools/list_changed` notifications the client got. */
  listChanged(): number;
  /** How many sampling requests the client saw cancelled. */
  samplingCancelled(): number;
  /** The elicitation requests the client was asked. */
  readonly elicitations: unknown[];
  /** The gateway's pid. */
  readonly pid: number;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /** `mcpServers`, by name. */
  servers: Record<string, unknown>;
  /** More command-line options (`--pins` paths are relative to `dir`). */
  args?: (dir: string) => string[];
  /** What the client answers to `elicitation/create`. */
  elicit?: () => ElicitResult;
}

/** Writes the configuration, spawns the gateway and connects a client that supports roots, sampling and elicitation. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const dir = mkdtempSync(join(tmpdir(), "backplane-gateway-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: options.servers }));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "gateway", "--config", join(dir, "config.json"), ...(options.args?.(dir) ?? [])],
    env: getDefaultEnvironment(),
    cwd: dir,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    stderr += String(chunk);
  });
  const { client, elicitations } = answeringClient("gateway-live-test", options.elicit);
  let samplingCancelled = 0;
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    if (JSON.stringify(request.params.messages[0]?.content).includes('"text":"wait"')) {
      // A person who never answers: the server gives up, and its cancellation must reach this handler.
      await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
      samplingCancelled++;
      return { role: "assistant", content: { type: "text", text: "too late" }, model: "test-model" };
    }
    const token = request.params._meta?.progressToken;
    if (token !== undefined) {
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { role: "assistant", content: { type: "text", text: "sampled text" }, model: "test-model" };
  });
  let changes = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  const stop = async () => {
    await client.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await client.connect(transport);
  } catch (e) {
    await stop();
    throw new Error(`the gateway did not start: ${String(e)}\n${stderr}`, { cause: e });
  }
  const pid = transport.pid as number;
  return {
    client,
    dir,
    pid,
    elicitations,
    stderr: () => stderr,
    waitFor: (pattern, ms = 10_000) => until(`gateway stderr to match ${pattern}`, () => pattern.exec(stderr)?.[0], ms),
    listChanged: () => changes,
    samplingCancelled: () => samplingCancelled,
    close: async () => {
      await stop();
      await until("the gateway to exit", () => !alive(pid), 10_000);
    },
  };
}

/** The text of a tool result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content[0]?.text ?? "";
}
