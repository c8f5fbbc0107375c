/**
 * The one evaluation result behind every output format (Core §12): a tree of schema-node results
 * whose children are keyword results. flag/basic/detailed/verbose and `annotations()` are views of it.
 */

/** The result of evaluating one schema (or subschema) against one instance location. */
export interface NodeResult {
  keywordLocation: string;
  absoluteKeywordLocation: string;
  instanceLocation: string;
  valid: boolean;
  keywords: KeywordResult[];
}

/** The result of one keyword; applicators hold the results of the subschemas they applied. */
export interface KeywordResult {
  keyword: string;
  keywordLocation: string;
  absoluteKeywordLocation: string;
  instanceLocation: string;
  valid: boolean;
  /** The typed parameters the message was rendered from (read by `anyOf` to name the values it allows). */
  params?: Params;
  error?: string;
  hasAnnotation: boolean;
  annotation?: unknown;
  children: NodeResult[];
}

/**
 * The parameters of a keyword's failure, each named once for every keyword that uses it, so messages and hosts
 * read them typed (`validator.evaluate(instance)` exposes them on each keyword result).
 */
export interface Params {
  /** A numeric bound: maxLength, minimum, maxItems, …; items `false`: how many `prefixItems` allow. */
  readonly limit?: number;
  /** `type`: the type names allowed, and the instance's. */
  readonly expected?: readonly string[];
  readonly actual?: string;
  /** `const`: the value; `enum`: the values (an array). */
  readonly allowed?: unknown;
  readonly multipleOf?: number;
  readonly pattern?: string;
  readonly format?: unknown;
  /** `required`, `dependentRequired`: the names missing; `dependentRequired`: the property that needs them. */
  readonly missing?: readonly string[];
  readonly property?: string;
  /** `uniqueItems`: the indices of the first equal pair. */
  readonly duplicates?: readonly [number, number];
  /** `contains`: the items matched, and the bounds. */
  readonly count?: number;
  readonly min?: number;
  readonly max?: number;
  /** `allOf`: the failing branches; `oneOf`: the matching ones; `anyOf`: how many there are. */
  readonly failed?: readonly number[];
  readonly matched?: readonly number[];
  readonly branches?: number;
  /** `anyOf` of constants and types: what would have matched. */
  readonly values?: readonly unknown[];
  readonly types?: readonly string[];
  /** `additionalProperties`/`unevaluated*` against `false`: what is not allowed. */
  readonly additional?: readonly string[];
  readonly unevaluated?: readonly (string | number)[];
  /** content*: the keyword that failed and its value. */
  readonly contentEncoding?: unknown;
  readonly contentMediaType?: unknown;
  readonly contentSchema?: boolean;
}

/** An output unit of the 2020-12 output formats. */
export interface OutputUnit {
  valid: boolean;
  keywordLocation: string;
  absoluteKeywordLocation?: string;
  instanceLocation: string;
  error?: string;
  annotation?: unknown;
  errors?: OutputUnit[];
  annotations?: OutputUnit[];
}

export interface Annotation {
  keyword: string;
  instanceLocation: string;
  keywordLocation: string;
  absoluteKeywordLocation: string;
  value: unknown;
}

export const OUTPUT_FORMATS = ["flag", "basic", "detailed", "verbose"] as const;

export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

function unitOf(r: KeywordResult | NodeResult): OutputUnit {
  const unit: OutputUnit = { valid: r.valid, keywordLocation: r.keywordLocation, instanceLocation: r.instanceLocation };
  if (r.absoluteKeywordLocation !== "") unit.absoluteKeywordLocation = r.absoluteKeywordLocation;
  return unit;
}

function isKeyword(r: KeywordResult | NodeResult): r is KeywordResult {
  return Object.hasOwn(r, "keyword");
}

/** Flat list of failing keyword units with messages (basic, for invalid results). */
function collectErrors(node: NodeResult, into: OutputUnit[]): void {
  for (const k of node.keywords) {
    if (k.valid) continue;
    if (k.error !== undefined) into.push({ ...unitOf(k), error: k.error });
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
    if (!r.valid && r.error !== undefined) unit.error = r.error;
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
    if (!r.valid && r.error !== undefined) unit.error = r.error;
    if (r.valid && r.hasAnnotation) unit.annotation = r.annotation;
  }
  if (!isRoot && !own && kept.length === 1) return kept[0];
  if (!isRoot && !own && kept.length === 0) return r.valid ? undefined : unit;
  if (kept.length > 0) {
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
