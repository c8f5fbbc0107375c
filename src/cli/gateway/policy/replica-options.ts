/**
 * The options of a gateway that runs as one of several replicas behind a load balancer: the key of the `requestState`
 * every replica must share (`--request-state-key`), this gateway's name among them (`--replica-id`) and the others'
 * MCP endpoints (`--peer`) (docs/guide/gateway.md "Running several gateways").
 */

import { readFileSync } from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { CliError, oneLine, type ParsedArgs } from "../../args.js";
import { MIN_KEY_BYTES } from "./request-state.js";

/** This gateway among replicas: its id and the others' MCP endpoints by id. */
export interface Replica {
  readonly id: string;
  readonly peers: ReadonlyMap<string, string>;
}

/**
 * `--request-state-key <file>`: the key of the `requestState` the gateway mints for MCP 2026-07-28 clients, which every
 * replica behind one load balancer must share (at least 32 bytes; the file's bytes as they are).
 */
export function requestStateKeyOf(args: ParsedArgs): Uint8Array | undefined {
  const file = args.options.get("--request-state-key");
  if (file === undefined) return undefined;
  let key: Uint8Array;
  try {
    key = new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new CliError(`cannot read --request-state-key ${file}: ${oneLine(errorMessage(e))}`);
  }
  if (key.length < MIN_KEY_BYTES)
    throw new CliError(
      `--request-state-key ${file} must hold at least ${MIN_KEY_BYTES} bytes (it holds ${key.length})`,
    );
  return key;
}

/**
 * `--replica-id <id>` and `--peer <id>=<url>`: this gateway's name among replicas behind one load balancer, and the
 * others' MCP endpoints, to which a 2026-07-28 retry of a call parked there is handed on.
 */
export function replicaOf(args: ParsedArgs): { replica?: Replica } {
  const id = args.options.get("--replica-id");
  const peers = new Map<string, string>();
  for (const peer of args.lists.get("--peer") ?? []) {
    const at = peer.indexOf("=");
    const url = peer.slice(at + 1);
    if (at <= 0 || !/^https?:\/\/[^\s]+$/.test(url))
      throw new CliError(`--peer ${peer}: expected <replica-id>=<http(s) URL of its MCP endpoint>`);
    peers.set(peer.slice(0, at), url);
  }
  if (id === undefined && peers.size > 0) throw new CliError("--peer needs --replica-id (this gateway's own id)");
  if (id === undefined) return {};
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new CliError(`--replica-id ${id}: letters, digits, _ and - (1 to 64)`);
  if (peers.has(id)) throw new CliError(`--peer names this gateway's own --replica-id ${id}`);
  return { replica: { id, peers } };
}
