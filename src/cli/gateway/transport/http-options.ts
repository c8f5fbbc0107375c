/**
 * The HTTP front's command-line options (docs/guide/gateway.md "Flags"): `--http host:port`, loopback
 * unless `--allow-remote`, the bearer token from `--token-file`, and the origins `--allow-origin` lets in.
 */

import { readFileSync } from "node:fs";
import { errorMessage } from "../../../engine/errors.js";
import { CliError, oneLine, type ParsedArgs } from "../../args.js";
import { isLoopback } from "./http-front.js";

/** `--http host:port`, loopback unless `--allow-remote`, with the token from `--token-file`. */
export function httpOf(args: ParsedArgs) {
  const given = args.options.get("--http");
  const httpOnly = ["--token-file", "--allow-origin", "--allow-remote"].filter(
    (name) => args.options.has(name) || args.lists.has(name) || args.flags.has(name),
  );
  if (given === undefined) {
    if (httpOnly.length > 0) throw new CliError(`${httpOnly[0]} applies only with --http`);
    return undefined;
  }
  const match = /^(\[[^\]]+\]|[^:]+):([0-9]{1,5})$/.exec(given);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || port > 65_535)
    throw new CliError(`--http must be host:port (e.g. 127.0.0.1:8080), got "${given}"`);
  const host = (match[1] as string).replace(/^\[(.*)\]$/, "$1");
  if (!isLoopback(host) && !args.flags.has("--allow-remote")) {
    throw new CliError(`--http ${given} is not a loopback address: pass --allow-remote to listen on it`);
  }
  const tokenFile = args.options.get("--token-file");
  if (tokenFile === undefined)
    throw new CliError("--http needs --token-file <file> (clients must send its token as a bearer token)");
  let token: string;
  try {
    token = readFileSync(tokenFile, "utf8").trim();
  } catch (e) {
    throw new CliError(`cannot read --token-file ${tokenFile}: ${oneLine(errorMessage(e))}`);
  }
  if (token.length < 16 || /\s/.test(token))
    throw new CliError(`--token-file ${tokenFile} must hold one token of at least 16 characters`);
  return { host, port, token, allowedOrigins: args.lists.get("--allow-origin") ?? [] };
}
