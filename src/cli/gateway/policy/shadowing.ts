/** Names more than one server lists (issue 46: shadowed names), reported at start-up and by review. */

/** A name two or more servers list. */
export interface Shadowed {
  readonly name: string;
  readonly servers: readonly string[];
}

/**
 * The names more than one server lists (each server once, in the order given): what a person should know, since a
 * model reads two tools (or prompts) of one name apart only by their prefixes.
 */
export function shadowedNames(lists: readonly { readonly server: string; readonly names: readonly string[] }[]) {
  const servers = new Map<string, string[]>();
  for (const { server, names } of lists) {
    for (const name of new Set(names)) servers.set(name, [...(servers.get(name) ?? []), server]);
  }
  const out: Shadowed[] = [];
  for (const [name, by] of servers) if (by.length > 1) out.push({ name, servers: by });
  return out;
}
