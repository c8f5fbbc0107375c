/**
 * Reference resolution at compile time (Core §8.2.3): a `$ref`/`$dynamicRef` value is resolved against its base
 * URI to a resource and then a JSON Pointer or plain-name fragment within it. A missing target is a compile error,
 * never a surprise during validation.
 */

import type { EngineCode, SchemaError } from "../errors.js";
import { appendPointer, decodeFragment, getAt, parsePointer } from "../json/pointer.js";
import type { Location, Resource } from "./resources.js";
import type { Places } from "./schema-places.js";
import { resolveUri, splitFragment } from "../json/uri.js";

/** What resolution needs of the compilation. */
export interface ResolutionContext {
  readonly places: Places;
  /** The resource at an absolute URI (indexing a registry or loaded document when first reached), if any. */
  resourceFor(base: string, from: Resource, pointer: string): Resource | undefined;
  /** Where an indexed subschema object lives (to switch base when a pointer enters an embedded resource). */
  locationOf(value: object): { resource: Resource; pointer: string } | undefined;
}

/** Resolves `ref`, found in `from` at `pointer`, to the location of its target. */
export function resolveReference(ref: string, from: Resource, pointer: string, ctx: ResolutionContext): Location {
  const fail = (message: string, code: EngineCode): SchemaError => ctx.places.error(from, pointer, message, code);
  const [base, rawFragment] = splitFragment(resolveUri(from.uri, ref));
  const resource = ctx.resourceFor(base, from, pointer);
  if (resource === undefined)
    throw fail(
      `cannot resolve reference "${ref}": "${base}" is not a known schema (nothing is fetched; register it)`,
      "ref_unresolved",
    );
  const fragment = decodeFragment(rawFragment);
  if (fragment === undefined) throw fail(`reference "${ref}" has a malformed percent-encoding`, "ref_invalid");
  if (fragment === "") return { resource, pointer: "", value: resource.root };
  if (fragment.startsWith("/")) {
    const tokens = parsePointer(fragment);
    if (tokens === undefined) throw fail(`reference "${ref}" has a malformed JSON Pointer`, "ref_invalid");
    const found = follow(resource, tokens, ctx);
    if (found === undefined)
      throw fail(`cannot resolve reference "${ref}": no value at that pointer`, "ref_unresolved");
    return found;
  }
  const anchored = resource.anchors.get(fragment);
  if (anchored === undefined)
    throw fail(`cannot resolve reference "${ref}": no anchor "${fragment}" in "${base}"`, "ref_unresolved");
  return { resource, pointer: anchored, value: getAt(resource.root, parsePointer(anchored) ?? [])?.value };
}

/** Walks a JSON Pointer from a resource root; entering an embedded resource switches the base. */
function follow(resource: Resource, tokens: string[], ctx: ResolutionContext): Location | undefined {
  let current: unknown = resource.root;
  let res = resource;
  let ptr = "";
  for (const token of tokens) {
    const found = getAt(current, [token]);
    if (found === undefined) return undefined;
    current = found.value;
    ptr = appendPointer(ptr, token);
    const known = typeof current === "object" && current !== null ? ctx.locationOf(current) : undefined;
    if (known !== undefined) ({ resource: res, pointer: ptr } = known);
  }
  return { resource: res, pointer: ptr, value: current };
}
