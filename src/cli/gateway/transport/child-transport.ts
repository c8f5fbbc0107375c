/**
 * A stdio MCP server as a child process: spawned without a shell, its stdout read as bounded newline-delimited
 * JSON-RPC (`LineTransport`), its stderr handed on line by line, and stopped by its pid whatever state it is in
 * (stdin closed, then SIGTERM, then SIGKILL), so a server that ignores its stdin cannot outlive the gateway.
 */

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { LineTransport, type LineFault } from "./line-transport.js";
import type { StdioServerConfig } from "../config.js";

export interface ChildOptions {
  readonly maxMessageBytes: number;
  /** The most bytes waiting to be written to the child (a server that does not read its stdin holds no more). */
  readonly maxQueuedBytes: number;
  readonly isMessage: (value: unknown) => boolean;
  /** The environment the child starts from (the SDK's default, safe variables); the config's `env` is added. */
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly onFault: (fault: LineFault) => void;
  /** One line the child wrote to stderr (without its newline). */
  readonly onStderr: (line: string) => void;
}

/** How long a child may take to exit after its stdin is closed, then after SIGTERM. */
const GRACE_MS = 1_000;
/** The most stderr kept unterminated before it is handed on anyway. */
const STDERR_LINE = 4_096;

/** Spawns the server; resolves with its transport once the process runs, rejects when it cannot be started. */
export function spawnServer(config: StdioServerConfig, options: ChildOptions): Promise<ChildServer> {
  const child = spawn(config.command, [...config.args], {
    cwd: config.cwd,
    env: { ...options.baseEnv, ...config.env },
    stdio: ["pipe", "pipe", "pipe"],
    shell: false,
    windowsHide: true,
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => {
      child.off("error", reject);
      resolve(new ChildServer(child, options));
    });
  });
}

/** A running child and its transport. */
export class ChildServer {
  readonly transport: LineTransport;
  /** Resolves when the process has exited, with how. */
  readonly exited: Promise<string>;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    options: ChildOptions,
  ) {
    this.transport = new LineTransport(child.stdout, child.stdin, {
      maxMessageBytes: options.maxMessageBytes,
      maxQueuedBytes: options.maxQueuedBytes,
      isMessage: options.isMessage,
      onFault: options.onFault,
      close: () => this.stop(),
    });
    // Writes to a child that has exited fail with EPIPE: the exit is what reports it.
    child.stdin.on("error", () => undefined);
    let partial = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      const lines = (partial + text).split("\n");
      partial = lines.pop() ?? "";
      if (partial.length > STDERR_LINE) {
        lines.push(partial);
        partial = "";
      }
      for (const line of lines) if (line.trim() !== "") options.onStderr(line.replace(/\r$/, ""));
    });
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) =>
        resolve(signal !== null ? `killed by ${signal}` : `exited with code ${code}`),
      );
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Closes stdin, then signals the process until it has exited (at most about two grace periods, then SIGKILL). */
  async stop(): Promise<void> {
    const { child } = this;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    if (await this.exitsWithin(GRACE_MS)) return;
    child.kill("SIGTERM");
    if (await this.exitsWithin(GRACE_MS)) return;
    child.kill("SIGKILL");
    await this.exitsWithin(GRACE_MS);
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
