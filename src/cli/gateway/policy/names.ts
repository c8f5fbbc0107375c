/**
 * How the gateway names a server's tools and prompts to its clients: `<server>__<name>`, or, in front of one server
 * (`--no-namespace`), the server's own names.
 */

import { CliError } from "../../args.js";

/** What joins a server's name and its tool's own name (the library's default separator). */
export const SEPARATOR = "__";

/** How the gateway names a server's tools and prompts to its clients, and reads a name back. */
export interface Names {
  /** Whether names carry their server's prefix. */
  readonly namespaced: boolean;
  /** The name a server's tool or prompt is listed by. */
  listed(server: string, name: string): string;
  /** The server and own name a listed name stands for, if any. */
  split(listed: string): { server: string; name: string } | undefined;
}

/**
 * Refuses `--no-namespace` where names could collide: it presents one server's names as they are, so it needs
 * exactly one server (a usage error, exit 2, otherwise).
 */
export function checkNamespacing(servers: readonly string[], namespaced: boolean, file: string): void {
  if (namespaced || servers.length === 1) return;
  throw new CliError(
    `--no-namespace needs exactly one server in ${file} (it names ${servers.length}): ` +
      "the tools and prompts of several servers could share a name",
  );
}

/**
 * `<server>__<name>`, split at the first `__`, the one way it splits, since a server name holds no `__` and neither
 * begins nor ends with `_` (config.ts); or, in front of one server (`--no-namespace`), its own names unchanged.
 */
export function namesFor(servers: readonly string[], namespaced: boolean): Names {
  const [only] = servers;
  if (!namespaced && only !== undefined && servers.length === 1) {
    return { namespaced, listed: (_server, name) => name, split: (listed) => ({ server: only, name: listed }) };
  }
  return {
    namespaced: true,
    listed: (server, name) => server + SEPARATOR + name,
    split: (listed) => {
      const at = listed.indexOf(SEPARATOR);
      return at <= 0 ? undefined : { server: listed.slice(0, at), name: listed.slice(at + SEPARATOR.length) };
    },
  };
}
