/** The `CompileContext` a keyword definition sees: its schema object, locations, and the compiler's services. */

import type { Compilation } from "./compiler.js";
import type { CompileContext } from "./keyword.js";
import type { Limits } from "./limits.js";
import type { SchemaNode } from "./node.js";
import { appendPointer, decodeFragment, getAt, pointerToFragment } from "./pointer.js";
import type { CompiledPattern } from "./regex/index.js";
import type { Location } from "./resources.js";
import { splitFragment } from "./uri.js";

/** The `CompileContext` handed to keyword definitions for one schema object. */
export class Context implements CompileContext {
  constructor(
    private readonly compilation: Compilation,
    private readonly loc: Location,
    readonly schema: Readonly<Record<string, unknown>>,
  ) {}

  get limits(): Readonly<Limits> {
    return this.compilation.limits;
  }

  get formatAssertion(): boolean {
    return this.compilation.options.formatAssertion === true || this.loc.resource.vocabularies.formatAssertion;
  }

  get contentAssertion(): boolean {
    return this.compilation.options.contentAssertion === true;
  }

  active(keyword: string): boolean {
    return this.loc.resource.vocabularies.keywords.has(keyword) && Object.hasOwn(this.schema, keyword);
  }

  private pointerOf(tokens: (string | number)[]): string {
    let p = this.loc.pointer;
    for (const t of tokens) p = appendPointer(p, t);
    return p;
  }

  /** Built on demand: most keywords never ask for it. */
  get location(): string {
    return this.loc.resource.uri + "#" + pointerToFragment(this.loc.pointer);
  }

  locationOf(...tokens: (string | number)[]): string {
    return this.loc.resource.uri + "#" + pointerToFragment(this.pointerOf(tokens));
  }

  subschema(...tokens: (string | number)[]): SchemaNode {
    const found = getAt(this.schema, tokens.map(String));
    const pointer = this.pointerOf(tokens);
    const value = found?.value;
    const known = typeof value === "object" && value !== null ? this.compilation.knownLocation(value) : undefined;
    return this.compilation.node(
      known !== undefined ? { ...known, value } : { resource: this.loc.resource, pointer, value },
    );
  }

  reference(ref: string): SchemaNode {
    return this.compilation.node(this.compilation.resolve(ref, this.loc.resource, this.pointerOf(["$ref"])));
  }

  dynamicReference(ref: string): { target: SchemaNode; anchor: string | undefined } {
    const loc = this.compilation.resolve(ref, this.loc.resource, this.pointerOf(["$dynamicRef"]));
    const fragment = splitFragment(ref)[1];
    const name = decodeFragment(fragment);
    const target = this.compilation.node(loc);
    const bookend =
      name !== undefined &&
      name !== "" &&
      !name.startsWith("/") &&
      loc.resource.dynamicAnchorPointers.get(name) === loc.pointer;
    if (!bookend) return { target, anchor: undefined };
    this.compilation.usesDynamicScope = true;
    return { target, anchor: name };
  }

  pattern(source: string, keyword: string): CompiledPattern {
    return this.compilation.pattern(source, this.loc.resource, this.pointerOf([keyword]));
  }

  fail(keyword: string, message: string, code = "schema_invalid"): never {
    throw this.compilation.error(this.loc.resource, this.pointerOf([keyword]), message, code);
  }
}
