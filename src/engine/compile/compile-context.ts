/** The `CompileContext` a keyword definition sees: its schema object, locations, and the compiler's services. */

import type { EngineCode, SchemaError } from "../errors.js";
import type { ResolvedFormat } from "../evaluate/keyword.js";
import type { CompileContext } from "../evaluate/keyword.js";
import type { Limits } from "../limits.js";
import { nearMiss } from "./names.js";
import { appendPointer, decodeFragment, getAt, pointerToFragment } from "../json/pointer.js";
import type { CompiledPattern } from "../regex/index.js";
import type { Location, Resource } from "./resources.js";
import type { Subschema } from "../evaluate/run.js";
import { splitFragment } from "../json/uri.js";

/** What a keyword's compile context needs of the compilation. */
export interface CompilerServices {
  readonly limits: Readonly<Limits>;
  /** The `formatAssertion` / `contentAssertion` options. */
  readonly formatAssertion: boolean;
  readonly contentAssertion: boolean;
  /** The formats `format` knows (built-in and the host's). */
  readonly formats: ReadonlyMap<string, ResolvedFormat>;
  /** `strictSchema`: unknown keywords and (with format assertion) unknown formats are compile errors. */
  readonly strictSchema: boolean;
  /** Compiles the schema at a location (once). */
  node(loc: Location): Subschema;
  /** Where an indexed subschema object lives. */
  locationOf(value: object): { resource: Resource; pointer: string } | undefined;
  resolve(ref: string, from: Resource, pointer: string): Location;
  pattern(source: string, from: Resource, pointer: string): CompiledPattern;
  error(from: Resource, pointer: string, message: string, code: EngineCode): SchemaError;
  /** A `$dynamicRef` whose bookend holds was compiled: evaluation must track the dynamic scope. */
  useDynamicScope(): void;
}

/** The `CompileContext` handed to keyword definitions for one schema object. */
export class Context implements CompileContext {
  private compiled: Map<string, Subschema> | undefined;

  constructor(
    private readonly compiler: CompilerServices,
    private readonly loc: Location,
    readonly schema: Readonly<Record<string, unknown>>,
  ) {}

  get limits(): Readonly<Limits> {
    return this.compiler.limits;
  }

  get formatAssertion(): boolean {
    return this.compiler.formatAssertion || this.loc.resource.vocabularies.formatAssertion;
  }

  get contentAssertion(): boolean {
    return this.compiler.contentAssertion;
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

  subschema(...tokens: (string | number)[]): Subschema {
    // Sibling keywords and fusions ask for the same subschemas: compiled once per path.
    const key = tokens.join("\u0000");
    let known = (this.compiled ??= new Map()).get(key);
    if (known === undefined) this.compiled.set(key, (known = this.compileSubschema(tokens)));
    return known;
  }

  private compileSubschema(tokens: (string | number)[]): Subschema {
    const value = getAt(this.schema, tokens.map(String))?.value;
    const known = typeof value === "object" && value !== null ? this.compiler.locationOf(value) : undefined;
    const loc: Location =
      known !== undefined
        ? { ...known, value }
        : { resource: this.loc.resource, pointer: this.pointerOf(tokens), value };
    return this.compiler.node(loc);
  }

  reference(ref: string): Subschema {
    return this.compiler.node(this.compiler.resolve(ref, this.loc.resource, this.pointerOf(["$ref"])));
  }

  dynamicReference(ref: string): { target: Subschema; anchor: string | undefined } {
    const loc = this.compiler.resolve(ref, this.loc.resource, this.pointerOf(["$dynamicRef"]));
    const name = decodeFragment(splitFragment(ref)[1]);
    const target = this.compiler.node(loc);
    const bookend =
      name !== undefined &&
      name !== "" &&
      !name.startsWith("/") &&
      loc.resource.dynamicAnchorPointers.get(name) === loc.pointer;
    if (!bookend) return { target, anchor: undefined };
    this.compiler.useDynamicScope();
    return { target, anchor: name };
  }

  pattern(source: string, keyword: string): CompiledPattern {
    return this.compiler.pattern(source, this.loc.resource, this.pointerOf([keyword]));
  }

  format(name: string): ResolvedFormat | undefined {
    const found = this.compiler.formats.get(name);
    if (found === undefined && this.compiler.strictSchema && this.formatAssertion) {
      const guess = nearMiss(name, this.compiler.formats.keys());
      const hint = guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`;
      this.fail(
        "format",
        `unknown format ${JSON.stringify(name)}${hint}, which would assert nothing`,
        "format_unknown",
      );
    }
    return found;
  }

  fail(keyword: string, message: string, code: EngineCode = "schema_invalid"): never {
    throw this.compiler.error(this.loc.resource, this.pointerOf([keyword]), message, code);
  }
}
