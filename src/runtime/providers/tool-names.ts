/**
 * Tool names for a provider (docs/guide/providers.md): an MCP name (1–128 of `A-Z a-z 0-9 _ - .`) that breaks
 * the provider's rule is rewritten — each refused character becomes `_`, a refused first character gets a `_` in
 * front, and an over-long name keeps its head and ends in `_` plus eight hex digits of a hash of the whole name —
 * and a `ToolNameMap` takes a provider's tool call back to the MCP name. Two tools with one provider name are refused.
 */

import type { NameRule } from "./profiles/profile.js";

/** Whether `name` satisfies the rule as it is. */
function nameFits(name: string, rule: NameRule): boolean {
  if (name.length === 0 || name.length > rule.maxLength) return false;
  const chars = [...name];
  if (rule.first !== undefined && !rule.first.test(chars[0] as string)) return false;
  return chars.every((c) => rule.character.test(c));
}

/** 32-bit FNV-1a over UTF-16 code units, as eight hex digits. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** The provider's name for an MCP tool name (the same when it fits), or undefined when the rule leaves no way. */
export function providerName(name: string, rule: NameRule): string | undefined {
  if (nameFits(name, rule)) return name;
  if (name.length === 0 || !rule.character.test("_")) return undefined;
  let out = [...name].map((c) => (rule.character.test(c) ? c : "_")).join("");
  if (rule.first !== undefined && !rule.first.test(out[0] as string)) out = "_" + out;
  if (out.length > rule.maxLength) {
    const suffix = "_" + fnv1a(name);
    if (rule.maxLength <= suffix.length) return undefined;
    out = out.slice(0, rule.maxLength - suffix.length) + suffix;
  }
  return nameFits(out, rule) ? out : undefined;
}

/** The names of one request: MCP name ↔ provider name, both ways. */
export class ToolNameMap {
  private readonly forward = new Map<string, string>();
  private readonly backward = new Map<string, string>();

  /** @internal */
  constructor(pairs: Iterable<readonly [mcp: string, provider: string]>) {
    for (const [mcp, provider] of pairs) {
      this.forward.set(mcp, provider);
      this.backward.set(provider, mcp);
    }
    Object.freeze(this);
  }

  /** The name a provider knows an MCP tool by, or undefined when the tool is not in the request. */
  providerName(mcpName: string): string | undefined {
    return this.forward.get(mcpName);
  }

  /** The MCP tool a provider's tool call names, or undefined when no tool of the request has that name. */
  mcpName(providerName: string): string | undefined {
    return this.backward.get(providerName);
  }

  /** `[mcpName, providerName]` pairs, in request order. */
  entries(): [string, string][] {
    return [...this.forward];
  }

  /** The pairs whose names differ. */
  renamed(): [string, string][] {
    return this.entries().filter(([mcp, provider]) => mcp !== provider);
  }

  /** `{ mcp, provider }` pairs, for a log or a checkpoint. */
  toJSON(): {
    /** The MCP tool name. */
    mcp: string;
    /** The provider's name for it. */
    provider: string;
  }[] {
    return this.entries().map(([mcp, provider]) => ({ mcp, provider }));
  }
}
