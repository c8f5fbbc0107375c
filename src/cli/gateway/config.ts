/**
 * The gateway's configuration file (docs/guide/gateway.md): the `mcpServers` object MCP clients already use, each
 * server either a stdio command (`command`, `args`, `env`, `cwd`) or a Streamable HTTP upstream (`url`, `headers`),
 * optionally with the `type` some clients write. Fail closed: an unknown field anywhere is an error naming it and the
 * fields that are known, so a typo never drops a setting.
 */

import { isPlainObject } from "../../engine/json/json.js";
import { CliError } from "../args.js";
import { DEFAULT_MAX_INPUT_BYTES, readJson } from "../files.js";

/** A server started as a child process speaking MCP over stdio. */
export interface StdioServerConfig {
  readonly kind: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the child's environment (which otherwise holds only the SDK's default, safe variables). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface HttpServerConfig {
  readonly kind: "http";
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/** One configured server: its name (the namespace of its tools and prompts) and how to reach it. */
export type ServerConfig = (StdioServerConfig | HttpServerConfig) & { readonly name: string };

/**
 * A server name is its tools' namespace (`<name>__<tool>`): MCP tool-name characters, no `__` (the separator) and no
 * `_` first or last (server `a` with tool `_x` and server `a_` with tool `x` would both be `a___x`), so a prefixed
 * name splits one way only, at its first `__`; at most 64 characters (a prefixed name stays within the 128 MCP allows).
 */
const SERVER_NAME = /^(?!.*__)(?!_)[A-Za-z0-9_.-]{1,64}(?<!_)$/;

const STDIO_FIELDS = ["type", "command", "args", "env", "cwd"];
const HTTP_FIELDS = ["type", "url", "headers"];

/** What the gateway speaks, said wherever a configuration names something else. */
const SPOKEN = 'it speaks stdio ("command") and Streamable HTTP ("url" with http:// or https://)';

/**
 * Why a server names a transport the gateway does not speak (a `ws://` or `wss://` URL, the legacy HTTP+SSE `type`,
 * any other `type`), in one line, or undefined. Said before anything else about the entry, so that the first line a
 * person reads is not a field error about a transport that could never have worked.
 */
function foreignTransport(value: Record<string, unknown>): string | undefined {
  const url = value["url"];
  const scheme = typeof url === "string" ? /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase() : undefined;
  if (scheme === "ws" || scheme === "wss")
    return `url "${scheme}://…" is a WebSocket transport, which the gateway does not speak; ${SPOKEN}`;
  const type = value["type"];
  if (type === undefined || type === "stdio" || type === "http" || type === "streamable-http") return undefined;
  const what = type === "sse" ? "the legacy HTTP+SSE transport (MCP 2024-11-05)" : "a transport";
  return `type ${JSON.stringify(type)} is ${what} the gateway does not speak; ${SPOKEN}`;
}

/**
 * Whether a URL's host is loopback (`localhost`, `127.0.0.0/8`, `::1`): plain HTTP to it never leaves the machine.
 * The URL parser has already normalised the host (lowercase, IPv6 in brackets, `127.1` as `127.0.0.1`).
 */
function loopbackUrl(url: URL): boolean {
  const host = url.hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Refuses a plain `http://` upstream whose host is not loopback unless `--allow-insecure-upstream` names it: what
 * travels there (tool definitions, arguments, results, the configured headers) can be read and changed on the way.
 * One `CliError` (exit 2) for the first such server; a name allowed that no such server has is refused too, so a typo
 * never leaves a server unallowed silently.
 */
export function checkUpstreamTransport(servers: readonly ServerConfig[], allowed: readonly string[], file: string) {
  for (const name of allowed) {
    const server = servers.find((s) => s.name === name);
    if (server === undefined || server.kind !== "http" || server.url.protocol !== "http:" || loopbackUrl(server.url))
      throw new CliError(
        `--allow-insecure-upstream ${name}: ${file} names no plain http:// server ${name} off loopback`,
      );
  }
  for (const server of servers) {
    if (server.kind !== "http" || server.url.protocol !== "http:" || loopbackUrl(server.url)) continue;
    if (allowed.includes(server.name)) continue;
    throw new CliError(
      `${file}: mcpServers.${server.name}.url is plain http:// to ${server.url.host}, which is not loopback: ` +
        `anyone on the way can read and change its tools, calls and headers; use https://, ` +
        `or pass --allow-insecure-upstream ${server.name}`,
    );
  }
}

function unknownField(where: string, field: string, known: readonly string[]): CliError {
  return new CliError(`${where}: unknown field ${JSON.stringify(field)} (known: ${known.join(", ")})`);
}

function strings(value: unknown, where: string): Record<string, string> {
  if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === "string")) {
    throw new CliError(`${where} must be an object of strings`);
  }
  return { ...value } as Record<string, string>;
}

function server(name: string, value: unknown, file: string): ServerConfig {
  const where = `${file}: mcpServers.${name}`;
  if (!SERVER_NAME.test(name)) {
    const rule =
      'must be 1–64 characters of A–Z a–z 0–9 _ - . without "__" and not beginning or ending with "_" ' +
      "(it prefixes its tools, prompts and resources as <server>__<name>, which must split one way only)";
    throw new CliError(`${file}: server name ${JSON.stringify(name)} ${rule}`);
  }
  if (!isPlainObject(value)) throw new CliError(`${where} must be an object`);
  const foreign = foreignTransport(value);
  if (foreign !== undefined) throw new CliError(`${where}: ${foreign}`);
  const http = Object.hasOwn(value, "url");
  if (http === Object.hasOwn(value, "command"))
    throw new CliError(`${where} needs exactly one of "command" (stdio) or "url" (Streamable HTTP)`);
  const known = http ? HTTP_FIELDS : STDIO_FIELDS;
  for (const field of Object.keys(value)) if (!known.includes(field)) throw unknownField(where, field, known);
  const type = value["type"];
  if (type !== undefined && !(http ? type === "http" || type === "streamable-http" : type === "stdio")) {
    const expected = http ? '"http" or "streamable-http" for a server with url' : '"stdio" for a server with command';
    throw new CliError(`${where}.type must be ${expected}`);
  }
  if (http) {
    let url: URL;
    try {
      url = new URL(String(value["url"]));
    } catch {
      throw new CliError(`${where}.url is not a URL`);
    }
    if (typeof value["url"] !== "string" || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new CliError(`${where}.url must be an http: or https: URL`);
    }
    const headers = value["headers"] === undefined ? {} : strings(value["headers"], `${where}.headers`);
    return { name, kind: "http", url, headers };
  }
  const command = value["command"];
  if (typeof command !== "string" || command === "") throw new CliError(`${where}.command must be a non-empty string`);
  const args = value["args"] ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
    throw new CliError(`${where}.args must be an array of strings`);
  const env = value["env"] === undefined ? {} : strings(value["env"], `${where}.env`);
  const cwd = value["cwd"];
  if (cwd !== undefined && (typeof cwd !== "string" || cwd === ""))
    throw new CliError(`${where}.cwd must be a non-empty string`);
  return { name, kind: "stdio", command, args: [...args] as string[], env, ...(cwd === undefined ? {} : { cwd }) };
}

/** The servers a configuration value names, in file order; throws `CliError` (exit 2) naming what is wrong. */
export function serversOf(config: unknown, file: string): ServerConfig[] {
  if (!isPlainObject(config)) throw new CliError(`${file} must be a JSON object { "mcpServers": { … } }`);
  // VS Code's .vscode/mcp.json names the same object "servers".
  const key = Object.hasOwn(config, "servers") && !Object.hasOwn(config, "mcpServers") ? "servers" : "mcpServers";
  for (const field of Object.keys(config)) {
    if (field === "inputs" && key === "servers")
      throw new CliError(
        `${file}: "inputs" (VS Code's prompted variables) cannot be asked by the gateway; write the values`,
      );
    if (field !== key) throw unknownField(file, field, [key]);
  }
  const servers = config[key];
  if (!isPlainObject(servers)) throw new CliError(`${file}: "${key}" must be an object of servers by name`);
  const names = Object.keys(servers);
  if (names.length === 0) throw new CliError(`${file}: "${key}" names no server`);
  return names.map((name) => server(name, servers[name], file));
}

/** Reads (under the CLI's input cap) and checks the configuration file. */
export async function readConfig(file: string): Promise<ServerConfig[]> {
  if (file === "-") throw new CliError("--config needs a file, not - (stdin is the client's connection)");
  return serversOf(await readJson(file, "configuration file", DEFAULT_MAX_INPUT_BYTES), file);
}
