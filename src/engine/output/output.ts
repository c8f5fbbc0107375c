/**
 * The one evaluation result behind every output format (Core §12): a tree of schema-node results
 * whose children are keyword results. flag/basic/detailed/verbose and `annotations()` are views of it.
 * Results are made here and nowhere else (`rootResult`, `KeywordResult.apply`, `SchemaNode.evaluate` opening
 * keyword results), and their locations are text only once a unit is kept.
 */

import { escapeToken } from "../json/pointer.js";

/**
 * Where a result sits, for a limit's message: its instance location, turned into text only when asked (a limit hit on
 * the output path asks; nothing else does until a unit is kept).
 */
export interface Located {
  /** JSON Pointer to the instance value. */
  readonly instanceLocation: string;
}

/**
 * The result of evaluating one schema (or subschema) against one instance location. Its locations are a link to the
 * keyword result that applied it and the member it was applied to, turned into JSON Pointers only when read (Core
 * §12.3: the keyword location along the evaluation path, the instance location).
 */
export class NodeResult implements Located {
  /** The subschema's canonical URI with a JSON Pointer fragment (Core §12.3.2). */
  absoluteKeywordLocation = "";
  /** Whether the instance value satisfies the subschema. */
  valid = true;
  /** The results of the subschema's keywords; only those that fail or annotate unless every unit is kept. */
  keywords: KeywordResult[] = [];
  private keywordText: string | undefined;
  private instanceText: string | undefined;

  /** @internal */
  constructor(
    /** The keyword result that applied this subschema (null at the root). */
    private readonly parent: KeywordResult | null,
    /** What this subschema adds to the parent's keyword location: "/name" or "/0" (already escaped), or "". */
    private readonly keywordSuffix: string,
    /** The member of the parent's instance it was applied to, or undefined in place. */
    private readonly member: string | number | undefined,
    /** A sibling of the parent keyword (`then`, `else` beside `if`): located from the parent's own schema. */
    private readonly sibling = false,
  ) {}

  /** JSON Pointer to the subschema along the evaluation path, `$ref`/`$dynamicRef` hops included (Core §12.3.1). */
  get keywordLocation(): string {
    if (this.keywordText !== undefined) return this.keywordText;
    const parent = this.parent;
    const base = parent === null ? "" : this.sibling ? parent.owner.keywordLocation : parent.keywordLocation;
    return (this.keywordText = base + this.keywordSuffix);
  }

  /** JSON Pointer to the instance value evaluated (Core §12.3.3). */
  get instanceLocation(): string {
    if (this.instanceText !== undefined) return this.instanceText;
    const parent = this.parent;
    let text = parent === null ? "" : parent.instanceLocation;
    if (this.member !== undefined)
      text += "/" + (typeof this.member === "number" ? this.member : escapeToken(this.member));
    return (this.instanceText = text);
  }
}

/** The result of one keyword; applicators hold the results of the subschemas they applied. */
export class KeywordResult implements Located {
  /** Whether the keyword is satisfied. */
  valid = true;
  /** The typed parameters the message was rendered from (read by `anyOf` to name the values it allows). */
  params?: Params;
  /** The failure's one-sentence message, rendered from `params` (absent when the keyword passed). */
  error?: string;
  /** Whether the keyword produced an annotation (Core §7.7); an annotation's value may itself be `undefined`. */
  hasAnnotation = false;
  /** The annotation's value when `hasAnnotation` is true, e.g. the names `properties` evaluated. */
  annotation?: unknown;
  /** The results of the subschemas an applicator applied; empty for assertions and annotations. */
  children: NodeResult[] = [];
  private keywordText: string | undefined;

  /** @internal */
  constructor(
    /** The result of the schema this keyword belongs to. */
    readonly owner: NodeResult,
    /** The keyword's name, e.g. `maxLength` (`false` for the failure of a `false` schema). */
    readonly keyword: string,
    /** "/" and the keyword's escaped name, precomputed when compiled ("" for a `false` schema's failure). */
    private readonly suffix: string,
    /** The keyword's canonical URI with a JSON Pointer fragment, precomputed when compiled. */
    readonly absoluteKeywordLocation: string,
  ) {}

  /** JSON Pointer to the keyword along the evaluation path, `$ref`/`$dynamicRef` hops included. */
  get keywordLocation(): string {
    return (this.keywordText ??= this.owner.keywordLocation + this.suffix);
  }

  /** JSON Pointer to the instance value the keyword evaluated. */
  get instanceLocation(): string {
    return this.owner.instanceLocation;
  }

  /** A new result of a subschema this keyword applies, at the member `member` (or in place), kept in `children`. */
  apply(keywordSuffix: string, member: string | number | undefined): NodeResult {
    const child = new NodeResult(this, keywordSuffix, member);
    this.children.push(child);
    return child;
  }

  /** A new result of a sibling keyword's subschema (`then`, `else` beside `if`), in place, kept in `children`. */
  applySibling(keyword: string): NodeResult {
    const child = new NodeResult(this, "/" + escapeToken(keyword), undefined, true);
    this.children.push(child);
    return child;
  }
}

/** The root result of an evaluation. */
export function rootResult(): NodeResult {
  return new NodeResult(null, "", undefined);
}

/** A result at an instance location given as text: where no keyword applied a subschema (`notJsonFailure`). */
class LocatedResult extends NodeResult {
  constructor(private readonly location: string) {
    super(null, "", undefined);
  }

  override get instanceLocation(): string {
    return this.location;
  }
}

/**
 * Makes a result that the schema's keywords found valid invalid because the instance holds a value that is not JSON
 * data (`Validator`): one failure at that value's location, with no keyword of its own (the whole schema refuses it).
 */
export function notJsonFailure(root: NodeResult, instanceLocation: string, message: string): void {
  const unit = new KeywordResult(new LocatedResult(instanceLocation), "", "", root.absoluteKeywordLocation);
  unit.valid = false;
  unit.error = message;
  root.keywords.push(unit);
  root.valid = false;
}

/**
 * The parameters of a keyword's failure, each named once for every keyword that uses it, so messages and hosts
 * read them typed (`validator.evaluate(instance)` exposes them on each keyword result).
 * @inline
 */
export interface Params {
  /** A numeric bound: maxLength, minimum, maxItems, …; items `false`: how many `prefixItems` allow. */
  readonly limit?: number;
  /** `type`: the type names allowed. */
  readonly expected?: readonly string[];
  /** `type`: the instance's JSON type name (`number` for any number, integers included). */
  readonly actual?: string;
  /** `const`: the value; `enum`: the values (an array). */
  readonly allowed?: unknown;
  /** `multipleOf`: the divisor. */
  readonly multipleOf?: number;
  /** `pattern`: the regular expression the string does not match. */
  readonly pattern?: string;
  /** `format` (when it asserts): the format the string does not satisfy. */
  readonly format?: unknown;
  /** `required`, `dependentRequired`: the names missing. */
  readonly missing?: readonly string[];
  /** `dependentRequired`: the property whose presence requires `missing`. */
  readonly property?: string;
  /** `uniqueItems`: the indices of the first equal pair. */
  readonly duplicates?: readonly [number, number];
  /** `contains`: how many items matched; items `false`: how many items there are. */
  readonly count?: number;
  /** `contains`: `minContains` (1 when absent). */
  readonly min?: number;
  /** `contains`: `maxContains`, when given. */
  readonly max?: number;
  /** `allOf`: the indices of the failing branches. */
  readonly failed?: readonly number[];
  /** `oneOf`: the indices of the branches that matched (none, or more than one). */
  readonly matched?: readonly number[];
  /** `anyOf`: the number of branches, none of which matched. */
  readonly branches?: number;
  /** `anyOf` whose every branch failed on one `enum`, `const` or `type`: the values those allow. */
  readonly values?: readonly unknown[];
  /** The same `anyOf`: the type names its branches allow. */
  readonly types?: readonly string[];
  /** `additionalProperties` against `false`: the names not allowed. */
  readonly additional?: readonly string[];
  /** `unevaluatedProperties`/`unevaluatedItems` against `false`: the names or indices not allowed. */
  readonly unevaluated?: readonly (string | number)[];
  /** `contentEncoding` (when content asserts): the encoding the string is not valid in. */
  readonly contentEncoding?: unknown;
  /** `contentMediaType` (when content asserts): the media type the decoded text is not. */
  readonly contentMediaType?: unknown;
  /** `contentSchema` (when content asserts): `true` when the parsed content fails it. */
  readonly contentSchema?: boolean;
}

/** An output unit of the 2020-12 output formats. */
export interface OutputUnit {
  /** Whether the instance location satisfies the schema location (the whole verdict at the root). */
  valid: boolean;
  /** JSON Pointer to the keyword or subschema along the evaluation path, `$ref`/`$dynamicRef` hops included. */
  keywordLocation: string;
  /** Its canonical URI with a JSON Pointer fragment; absent where it is not known. */
  absoluteKeywordLocation?: string;
  /** JSON Pointer to the instance value. */
  instanceLocation: string;
  /** The keyword of a keyword's unit (`false` for a `false` schema's failure); absent on a subschema's unit. */
  keyword?: string;
  /** A failing keyword's one-sentence message. */
  error?: string;
  /**
   * A failing keyword's typed parameters, which its message is rendered from (`{}` when it has none): enough to
   * render the failure in any language (`messages` option, `errorsText`).
   */
  params?: Params;
  /** A passing keyword's annotation value. */
  annotation?: unknown;
  /** The failing units below this one (basic: a flat list at the root). */
  errors?: OutputUnit[];
  /** The annotating (or, in verbose, passing) units below a valid one. */
  annotations?: OutputUnit[];
}

/** `validate`'s output for a valid instance (basic, detailed or verbose): annotations, never errors. */
export interface ValidOutput extends OutputUnit {
  /** The instance is valid. */
  valid: true;
  /** Never set on a valid output. */
  errors?: undefined;
}

/** `validate`'s output for an invalid instance (basic, detailed or verbose): the errors are always listed. */
export interface InvalidOutput extends OutputUnit {
  /** The instance is invalid. */
  valid: false;
  /** The failing units (basic: a flat list; detailed and verbose: the tree below the root). */
  errors: OutputUnit[];
}

/** `validate`'s output in the basic, detailed or verbose format: narrow it on `valid`. */
export type ValidationOutput = ValidOutput | InvalidOutput;

/** `validate`'s output in the flag format: the verdict only. */
export interface FlagOutput {
  /** Whether the instance is valid. */
  valid: boolean;
}

/** One annotation of a valid instance (Core §7.7), as `Validator.annotations` lists them. */
export interface Annotation {
  /** The keyword that annotated, e.g. `title`, `properties`. */
  keyword: string;
  /** JSON Pointer to the instance value the annotation applies to. */
  instanceLocation: string;
  /** JSON Pointer to the keyword along the evaluation path, `$ref`/`$dynamicRef` hops included. */
  keywordLocation: string;
  /** The keyword's canonical URI with a JSON Pointer fragment. */
  absoluteKeywordLocation: string;
  /** The annotation's value: the keyword's value for `title` and the like, evaluated names for applicators. */
  value: unknown;
}

/** The output formats `validate` accepts (Core §12.4). */
export const OUTPUT_FORMATS = ["flag", "basic", "detailed", "verbose"] as const;

/**
 * An output format of `validate` (Core §12.4): `flag` (the verdict only), `basic` (a flat list of failing units, or of
 * annotations when valid), `detailed` (the tree pruned to what explains the verdict), `verbose` (every unit).
 * @useDeclaredType
 */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

function unitOf(r: KeywordResult | NodeResult): OutputUnit {
  const unit: OutputUnit = { valid: r.valid, keywordLocation: r.keywordLocation, instanceLocation: r.instanceLocation };
  if (r.absoluteKeywordLocation !== "") unit.absoluteKeywordLocation = r.absoluteKeywordLocation;
  // A failure no keyword reports (`notJsonFailure`) has none to name.
  if (isKeyword(r) && r.keyword !== "") unit.keyword = r.keyword;
  return unit;
}

/** A failing keyword's message and parameters on its unit. */
function failure(unit: OutputUnit, k: KeywordResult): void {
  if (k.valid || k.error === undefined) return;
  unit.error = k.error;
  unit.params = k.params ?? {};
}

function isKeyword(r: KeywordResult | NodeResult): r is KeywordResult {
  return r instanceof KeywordResult;
}

/** Flat list of failing keyword units with messages (basic, for invalid results). */
function collectErrors(node: NodeResult, into: OutputUnit[]): void {
  for (const k of node.keywords) {
    if (k.valid) continue;
    if (k.error !== undefined) {
      const unit = unitOf(k);
      failure(unit, k);
      into.push(unit);
    }
    for (const c of k.children) if (!c.valid) collectErrors(c, into);
  }
}

/** Flat list of annotation units from passing keywords of passing subschemas. */
function collectAnnotations(node: NodeResult, into: OutputUnit[]): void {
  for (const k of node.keywords) {
    if (!k.valid) continue;
    if (k.hasAnnotation) into.push({ ...unitOf(k), annotation: k.annotation });
    for (const c of k.children) if (c.valid) collectAnnotations(c, into);
  }
}

export function basicOutput(root: NodeResult): OutputUnit {
  const out = unitOf(root);
  const list: OutputUnit[] = [];
  if (root.valid) {
    collectAnnotations(root, list);
    if (list.length > 0) out.annotations = list;
  } else {
    collectErrors(root, list);
    out.errors = list;
  }
  return out;
}

/** Verbose: the whole tree, every unit kept. */
function verboseUnit(r: KeywordResult | NodeResult): OutputUnit {
  const unit = unitOf(r);
  const children = isKeyword(r) ? r.children : r.keywords;
  if (isKeyword(r)) {
    failure(unit, r);
    if (r.valid && r.hasAnnotation) unit.annotation = r.annotation;
  }
  if (children.length > 0) {
    const list = children.map(verboseUnit);
    if (r.valid) unit.annotations = list;
    else unit.errors = list;
  }
  return unit;
}

/**
 * Detailed: the verbose tree pruned (Core §12.4.3): only children that agree with their parent's
 * verdict (a failing result keeps its failures, a passing one its annotations), and units that say
 * nothing themselves and hold a single child are replaced by that child. The root always stays.
 */
function detailedUnit(r: KeywordResult | NodeResult, isRoot: boolean): OutputUnit | undefined {
  const unit = unitOf(r);
  const children: (KeywordResult | NodeResult)[] = isKeyword(r) ? r.children : r.keywords;
  const kept: OutputUnit[] = [];
  for (const c of children) {
    if (c.valid !== r.valid) continue;
    const u = detailedUnit(c, false);
    if (u !== undefined) kept.push(u);
  }
  const own = isKeyword(r) && ((!r.valid && r.error !== undefined) || (r.valid && r.hasAnnotation));
  if (isKeyword(r)) {
    failure(unit, r);
    if (r.valid && r.hasAnnotation) unit.annotation = r.annotation;
  }
  if (!isRoot && !own && kept.length === 1) return kept[0];
  if (!isRoot && !own && kept.length === 0) return r.valid ? undefined : unit;
  // An invalid root always lists its errors (its type says so).
  if (kept.length > 0 || (isRoot && !r.valid)) {
    if (r.valid) unit.annotations = kept;
    else unit.errors = kept;
  }
  return unit;
}

export function render(root: NodeResult, format: OutputFormat): OutputUnit | { valid: boolean } {
  switch (format) {
    case "flag":
      return { valid: root.valid };
    case "basic":
      return basicOutput(root);
    case "verbose":
      return verboseUnit(root);
    case "detailed":
      return detailedUnit(root, true) as OutputUnit;
  }
}

/** Every annotation of a passing evaluation (Core §7.7.1), in evaluation order; failed subschemas drop theirs. */
export function annotationsOf(root: NodeResult): Annotation[] {
  const out: Annotation[] = [];
  const walk = (node: NodeResult): void => {
    for (const k of node.keywords) {
      if (!k.valid) continue;
      if (k.hasAnnotation) {
        out.push({
          keyword: k.keyword,
          instanceLocation: k.instanceLocation,
          keywordLocation: k.keywordLocation,
          absoluteKeywordLocation: k.absoluteKeywordLocation,
          value: k.annotation,
        });
      }
      for (const c of k.children) if (c.valid) walk(c);
    }
  };
  if (root.valid) walk(root);
  return out;
}
