/**
 * The call decoder of a provider request (`CatalogCheck.decodeCall`): a model's tool call back to the call the tool
 * was published for, before `Execution.invoke` checks it against the original schema. The provider's tool name is
 * mapped back to the MCP name, and where an optional property was sent required and nullable (`encode: true`), its
 * null is removed: the property is absent, as the original schema means it. Nothing else is touched, and a call
 * without such a null comes back as the very same arguments value. Total: any value is decoded or refused with an
 * error, never thrown; deep or large arguments hit the engine's limits first.
 */

import { defineOwn, isObject } from "../../engine/json/json.js";
import { appendPointer } from "../../engine/json/pointer.js";
import { defaultLimits } from "../../engine/limits.js";
import type { BackplaneError } from "../errors/backplane-error.js";
import type { ErrorCode } from "../errors/codes.js";
import { err, ok, type Result } from "../errors/result.js";
import { categoryOf, type DecodeNode } from "./translation/decode-plan.js";

/** A model's tool call decoded: the MCP tool name and the arguments the original schema is to judge. */
export interface DecodedCall {
  /** The MCP tool name (what `Execution.invoke` looks the tool up by). */
  readonly name: string;
  /** The arguments, with every encoded null removed; absent when the call had none. */
  readonly arguments?: unknown;
}

/** Why a model's call could not be decoded (docs/reference/errors.md "Every code"). */
export interface CallDecodeError extends BackplaneError<ErrorCode<"callDecode">> {
  /** `validation` for a call that is not one; `execution_failure` for a limit. */
  readonly class: "validation" | "execution_failure";
  /**
   * `call_invalid`: not an object with a string `name`, or its arguments could not be read; `tool_unknown`: the
   * request lists no tool by that name; `limit_exceeded`: the arguments are deeper or larger than the limits.
   */
  readonly code: ErrorCode<"callDecode">;
  /** Where in the arguments, for a limit. */
  readonly instancePointer?: string;
}

/** A request's tools by provider name: the MCP name and, when it encoded optional properties, the decode plan. */
export type DecodeTable = ReadonlyMap<string, { readonly name: string; readonly plan?: DecodeNode }>;

/** Decodes one model call. */
export type CallDecoder = (call: unknown) => Result<DecodedCall, CallDecodeError>;

/** A limit hit while decoding, at an instance location. */
class DecodeLimit extends Error {
  constructor(
    readonly limit: string,
    readonly value: number,
    readonly pointer: string,
  ) {
    super(`limit ${limit} (${value}) exceeded at "${pointer}"`);
  }
}

/** An instance location, built into a JSON Pointer only for an error. */
interface Path {
  readonly parent?: Path;
  readonly token: string;
}

function pointerOf(path: Path | undefined): string {
  const tokens: string[] = [];
  for (let p = path; p !== undefined; p = p.parent) tokens.push(p.token);
  return tokens.reverse().reduce<string>((pointer, token) => appendPointer(pointer, token), "");
}

const MAX_DEPTH = defaultLimits.maxInstanceDepth;
const MAX_STEPS = defaultLimits.maxInstanceNodes;
const MAX_FRAMES = defaultLimits.maxEvaluationDepth;

/** The decoder of a request whose tools `table` lists. */
export function callDecoder(table: DecodeTable): CallDecoder {
  return (call) => {
    let name: unknown;
    let given: boolean;
    let args: unknown;
    try {
      if (!isObject(call)) return err(invalid("a model call must be an object with a name and arguments"));
      name = call["name"];
      given = Object.hasOwn(call, "arguments") && call["arguments"] !== undefined;
      args = given ? call["arguments"] : undefined;
    } catch {
      return err(invalid("the model call could not be read"));
    }
    if (typeof name !== "string") return err(invalid("a model call must name its tool with a string"));
    const entry = table.get(name);
    if (entry === undefined)
      return err({
        class: "validation",
        code: "tool_unknown",
        message: `the model called "${name}", which is not a tool of this request`,
      });
    if (!given) return ok({ name: entry.name });
    if (entry.plan === undefined) return ok({ name: entry.name, arguments: args });
    try {
      return ok({ name: entry.name, arguments: new Decoding().value(args, entry.plan, TOP) });
    } catch (error) {
      if (error instanceof DecodeLimit)
        return err({
          class: "execution_failure",
          code: "limit_exceeded",
          message: `decoding the call to "${name}": ${error.message}`,
          instancePointer: error.pointer,
        });
      return err(invalid(`the arguments of the call to "${name}" could not be read`));
    }
  };
}

function invalid(message: string): CallDecodeError {
  return { class: "validation", code: "call_invalid", message };
}

/**
 * Where a value sits: its instance location, its nesting (`depth`, bounded by `maxInstanceDepth`) and how many plan
 * applications led to it (`frames`: references can chain, bounded by `maxEvaluationDepth`).
 */
interface Place {
  readonly path: Path | undefined;
  readonly depth: number;
  readonly frames: number;
}

const TOP: Place = { path: undefined, depth: 0, frames: 0 };

/** One decoding: the values it visits are counted against `maxInstanceNodes`. */
class Decoding {
  private steps = 0;

  /**
   * One value under one plan node: the `anyOf` branch its type selects, the plans that apply to it as well, then its
   * items or members. `applied` holds the nodes already applied to this very value.
   */
  value(value: unknown, node: DecodeNode, place: Place, applied: ReadonlySet<DecodeNode> = new Set()): unknown {
    if (!node.active || applied.has(node)) return value;
    this.checkBounds(place);
    // A reference back to a node already applied to this very value adds nothing (and would never end).
    const here = new Set(applied).add(node);
    const same = { ...place, frames: place.frames + 1 };
    let out = value;
    const branch = node.byType?.get(categoryOf(out));
    if (branch !== undefined) out = this.value(out, branch, same, here);
    for (const other of node.also) out = this.value(out, other, same, here);
    if (Array.isArray(out)) return node.items === undefined ? out : this.items(out, node.items, place);
    return isObject(out) ? this.members(out, node, place) : out;
  }

  private checkBounds({ path, depth, frames }: Place): void {
    if (depth > MAX_DEPTH) throw new DecodeLimit("maxInstanceDepth", MAX_DEPTH, pointerOf(path));
    if (frames > MAX_FRAMES) throw new DecodeLimit("maxEvaluationDepth", MAX_FRAMES, pointerOf(path));
    this.charge(1, path);
  }

  private charge(count: number, path: Path | undefined): void {
    this.steps += count;
    if (this.steps > MAX_STEPS) throw new DecodeLimit("maxInstanceNodes", MAX_STEPS, pointerOf(path));
  }

  private items(items: readonly unknown[], node: DecodeNode, place: Place): unknown[] {
    if (!node.active) return items as unknown[];
    let copy: unknown[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const before = items[i];
      const after = this.value(before, node, inside(place, String(i)));
      if (after === before) continue;
      copy ??= items.slice();
      copy[i] = after;
    }
    return copy ?? (items as unknown[]);
  }

  /** The members of an object: encoded nulls removed, declared properties decoded; a copy only when one changed. */
  private members(object: Record<string, unknown>, node: DecodeNode, place: Place): Record<string, unknown> {
    const removed = new Set(node.encoded.filter((name) => Object.hasOwn(object, name) && object[name] === null));
    const replaced = new Map<string, unknown>();
    for (const [name, child] of node.properties) {
      if (!child.active || removed.has(name) || !Object.hasOwn(object, name)) continue;
      const before = object[name];
      const after = this.value(before, child, inside(place, name));
      if (after !== before) replaced.set(name, after);
    }
    if (removed.size === 0 && replaced.size === 0) return object;
    const keys = Object.keys(object);
    this.charge(keys.length, place.path);
    const copy: Record<string, unknown> = {};
    for (const key of keys) {
      if (removed.has(key)) continue;
      defineOwn(copy, key, replaced.has(key) ? replaced.get(key) : object[key]);
    }
    return copy;
  }
}

/** The place of an item or member of the value at `place`. */
function inside(place: Place, token: string): Place {
  return { path: { parent: place.path, token }, depth: place.depth + 1, frames: place.frames + 1 };
}
