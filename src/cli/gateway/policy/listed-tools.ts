/**
 * The servers' listings as the gateway reads them before it judges pins (pin-judging.ts) and admits (catalog.ts):
 * each named tool under its listed name, with its server as its `backend` and the server's version as its revision;
 * the server every listed name belongs to, admitted or not, since a held or left-out tool is reported and routed by
 * it; and what is not a tool with a name, left out here, since the library could not say whose it is.
 */

import { isObject } from "../../../engine/json/json.js";
import type { Names } from "./names.js";
import { shadowedNames, type Shadowed } from "./shadowing.js";

/** One server's listing. */
export interface ListedServer {
  readonly name: string;
  /** Every listed tool's revision: the server's version. */
  readonly revision: string;
  readonly tools: readonly unknown[];
}

/** One listed tool, as it is judged and admitted. */
export interface Descriptor {
  readonly server: string;
  readonly listed: string;
  readonly tool: Record<string, unknown>;
}

/** A tool left out of the catalog, and why (for stderr and the audit log: host data). */
export interface LeftOut {
  readonly name: string;
  readonly server: string;
  readonly code: string;
  readonly reason: string;
}

/** The listings read. */
export interface ReadListings {
  /** Each named tool, in listing order. */
  readonly descriptors: readonly Descriptor[];
  /** Listed name → server, for every named tool (admitted, held or left out by the library). */
  readonly owners: Map<string, string>;
  /** Listed tools that are not an object with a name. */
  readonly excluded: readonly LeftOut[];
  /** Bare tool names more than one server lists (namespacing keeps the tools apart). */
  readonly shadowed: readonly Shadowed[];
}

/** Reads the servers' listings under the names clients are shown (`names`). */
export function readListings(listed: readonly ListedServer[], names: Names): ReadListings {
  const descriptors: Descriptor[] = [];
  const owners = new Map<string, string>();
  const excluded: LeftOut[] = [];
  const lists: { server: string; names: string[] }[] = [];
  for (const server of listed) {
    const own: string[] = [];
    for (const tool of server.tools) {
      const name = isObject(tool) && typeof tool["name"] === "string" ? tool["name"] : undefined;
      if (name === undefined || !isObject(tool)) {
        const reason = "a listed tool is not an object with a name";
        excluded.push({ name: "(unnamed)", server: server.name, code: "tool_invalid", reason });
        continue;
      }
      const as = names.listed(server.name, name);
      owners.set(as, server.name);
      own.push(name);
      descriptors.push({
        server: server.name,
        listed: as,
        tool: { ...tool, revision: server.revision, backend: server.name },
      });
    }
    lists.push({ server: server.name, names: own });
  }
  return { descriptors, owners, excluded, shadowed: shadowedNames(lists) };
}
