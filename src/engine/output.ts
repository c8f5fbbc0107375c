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
  /** Typed parameters the message was rendered from. */
  params?: Record<string, unknown>;
  error?: string;
  hasAnnotation: boolean;
  annotation?: unknown;
  children: NodeResult[];
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

export type OutputFormat = "flag" | "basic" | "detailed" | "verbose";

export function childResult(parent: KeywordResult, keywordSuffix: string, instanceSuffix: string): NodeResult {
  const child: NodeResult = {
    keywordLocation: parent.keywordLocation + keywordSuffix,
    absoluteKeywordLocation: "",
    instanceLocation: parent.instanceLocation + instanceSuffix,
    valid: true,
    keywords: [],
  };
  parent.children.push(child);
  return child;
}

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

/** Detailed: the tree with passing branches of failing results, and units that say nothing, pruned. */
function detailedUnit(r: KeywordResult | NodeResult): OutputUnit | undefined {
  const unit = unitOf(r);
  const children: (KeywordResult | NodeResult)[] = isKeyword(r) ? r.children : r.keywords;
  const kept: OutputUnit[] = [];
  for (const c of children) {
    if (!r.valid && c.valid) continue;
    const u = detailedUnit(c);
    if (u !== undefined) kept.push(u);
  }
  const own = isKeyword(r) && ((!r.valid && r.error !== undefined) || (r.valid && r.hasAnnotation));
  if (isKeyword(r)) {
    if (!r.valid && r.error !== undefined) unit.error = r.error;
    if (r.valid && r.hasAnnotation) unit.annotation = r.annotation;
  }
  if (!own && kept.length === 1 && (!isKeyword(r) || r.error === undefined)) return kept[0];
  if (!own && kept.length === 0) return r.valid ? undefined : unit;
  if (kept.length > 0) {
    if (r.valid) unit.annotations = kept;
    else unit.errors = kept;
  }
  return unit;
}

export function render(root: NodeResult, format: OutputFormat): OutputUnit | { valid: boolean } {
  switch (format) {
    case "flag": return { valid: root.valid };
    case "basic": return basicOutput(root);
    case "verbose": return verboseUnit(root);
    case "detailed": return detailedUnit(root) ?? { valid: root.valid, keywordLocation: "", instanceLocation: "" };
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
