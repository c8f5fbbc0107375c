/**
 * Matching a URI against a URI template (RFC 6570, levels 1 to 4) without backtracking: the template is read into a
 * small automaton (a literal character, or an expression that expands to nothing or to its operator's first character
 * followed by any run of the characters its expansion may hold) and the URI is run through every state at once, so a
 * match costs at most (states × URI characters) steps, counted. Which characters an expansion may hold follows
 * RFC 6570 §3.2 as servers match it (the MCP SDK's `UriTemplate`): `{var}` and `{.var}` and `{;var}` hold no `/`, `?`
 * or `#`; `{/var}` no `?` or `#`; `{?var}` and `{&var}` no `#`; `{+var}` and `{#var}` anything.
 *
 * Specificity, to pick one owner among templates that match: more literal characters is more specific; at equal
 * literals, fewer unrestricted expressions (`{+…}`, `{#…}`) is. Two templates that can match one URI are found by
 * running both automata together (`overlap`).
 */

/** One state of a template's automaton. */
type Step =
  | { readonly kind: "literal"; readonly char: string }
  /** An expression: skippable; otherwise `prefix` (when there is one) then any run of characters not in `excluded`. */
  | { readonly kind: "expression"; readonly prefix: string; readonly excluded: string };

export interface UriTemplate {
  readonly template: string;
  readonly steps: readonly Step[];
  /** Literal characters in the template. */
  readonly literals: number;
  /** Expressions that may hold any character (`{+…}`, `{#…}`). */
  readonly loose: number;
}

/** What an expression's operator allows in its expansion (RFC 6570 §3.2.1 table, as servers match it). */
const OPERATORS = new Map<string, { prefix: string; excluded: string }>([
  ["", { prefix: "", excluded: "/?#" }],
  ["+", { prefix: "", excluded: "" }],
  ["#", { prefix: "#", excluded: "" }],
  [".", { prefix: ".", excluded: "/?#" }],
  ["/", { prefix: "/", excluded: "?#" }],
  [";", { prefix: ";", excluded: "/?#" }],
  ["?", { prefix: "?", excluded: "#" }],
  ["&", { prefix: "&", excluded: "#" }],
]);

/** Reads a template; `undefined` when it is not one (an unclosed or nested brace, an unknown operator). */
export function parseTemplate(template: string): UriTemplate | undefined {
  const steps: Step[] = [];
  let literals = 0;
  let loose = 0;
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf("{", at);
    const end = open < 0 ? template.length : open;
    for (const char of template.slice(at, end)) {
      if (char === "}") return undefined;
      steps.push({ kind: "literal", char });
      literals++;
    }
    if (open < 0) break;
    const close = template.indexOf("}", open);
    if (close < 0) return undefined;
    const body = template.slice(open + 1, close);
    if (body.includes("{") || body === "") return undefined;
    const first = body.charAt(0);
    const operator = OPERATORS.get(first) ?? (/[=,!@|]/.test(first) ? undefined : OPERATORS.get(""));
    if (operator === undefined) return undefined;
    if (operator.excluded === "") loose++;
    steps.push({ kind: "expression", ...operator });
    at = close + 1;
  }
  return { template, steps, literals, loose };
}

/**
 * The automaton's states: state `i` is "before step i"; expression step i with a prefix has a second state, "inside
 * step i" (after its prefix), numbered `steps.length + 1 + i`. Without a prefix an expression is entered inside.
 */
function inside(t: UriTemplate, i: number): number {
  return t.steps.length + 1 + i;
}

/** Adds `state` and every state reachable from it without reading a character. */
function close(t: UriTemplate, state: number, into: Set<number>): void {
  let s = state;
  while (!into.has(s)) {
    into.add(s);
    if (s >= t.steps.length) return;
    const step = t.steps[s] as Step;
    if (step.kind === "literal") return;
    if (step.prefix === "") into.add(inside(t, s));
    // An expression may expand to nothing, and a run inside it may end here.
    s = s + 1;
  }
}

/** The states after reading `char` from `state`. */
function advance(t: UriTemplate, state: number, char: string, into: Set<number>): void {
  const n = t.steps.length;
  if (state < n) {
    const step = t.steps[state] as Step;
    if (step.kind === "literal") {
      if (step.char === char) close(t, state + 1, into);
    } else if (step.prefix === char) {
      into.add(inside(t, state));
      close(t, state + 1, into);
    }
    return;
  }
  if (state === n) return;
  const i = state - n - 1;
  const step = t.steps[i] as Step & { kind: "expression" };
  if (!step.excluded.includes(char)) {
    into.add(state);
    close(t, i + 1, into);
  }
}

/** A count of steps taken, and how many may be (past it, a match stops and answers false). */
export interface Work {
  work: number;
  readonly limit?: number;
}

/** Whether `uri` matches the template; `counter.work` counts the (state, character) steps taken. */
export function matchTemplate(t: UriTemplate, uri: string, counter: Work = { work: 0 }): boolean {
  const limit = counter.limit ?? Infinity;
  let states = new Set<number>();
  close(t, 0, states);
  for (const char of uri) {
    const next = new Set<number>();
    for (const state of states) {
      if (++counter.work > limit) return false;
      advance(t, state, char, next);
    }
    if (next.size === 0) return false;
    states = next;
  }
  return states.has(t.steps.length);
}

/** Whether `a` is more specific than `b` (positive), less (negative), or neither (0). */
export function specificity(a: UriTemplate, b: UriTemplate): number {
  if (a.literals !== b.literals) return a.literals - b.literals;
  return b.loose - a.loose;
}

/** The characters a state can read next: one character, or any but those in `excluded`. */
type Reads = { readonly char: string; readonly excluded?: undefined } | { readonly excluded: string };

function reads(t: UriTemplate, state: number): Reads | undefined {
  const n = t.steps.length;
  if (state < n) {
    const step = t.steps[state] as Step;
    if (step.kind === "literal") return { char: step.char };
    return step.prefix === "" ? undefined : { char: step.prefix };
  }
  if (state === n) return undefined;
  return { excluded: (t.steps[state - n - 1] as Step & { kind: "expression" }).excluded };
}

/** A character both `x` and `y` accept, when there is one (inside a run every accepted character leads alike). */
function common(x: Reads, y: Reads): string | undefined {
  if (x.excluded === undefined && y.excluded === undefined) return x.char === y.char ? x.char : undefined;
  if (x.excluded === undefined) return (y.excluded as string).includes(x.char) ? undefined : x.char;
  if (y.excluded === undefined) return x.excluded.includes(y.char) ? undefined : y.char;
  // Two runs: a letter is in both (no operator excludes one).
  return "a";
}

/**
 * Whether some URI matches both templates: a search over pairs of states (at most (states of a) × (states of b)
 * pairs, each visited once, counted in `work`).
 */
export function overlap(a: UriTemplate, b: UriTemplate, counter: Work = { work: 0 }): boolean {
  const limit = counter.limit ?? Infinity;
  const size = b.steps.length * 2 + 2;
  const seen = new Set<number>();
  const start = (t: UriTemplate) => {
    const s = new Set<number>();
    close(t, 0, s);
    return [...s];
  };
  const queue: [number, number][] = [];
  for (const x of start(a)) for (const y of start(b)) queue.push([x, y]);
  while (queue.length > 0) {
    const [x, y] = queue.pop() as [number, number];
    const key = x * size + y;
    if (seen.has(key)) continue;
    seen.add(key);
    if (++counter.work > limit) return false;
    if (x === a.steps.length && y === b.steps.length) return true;
    const rx = reads(a, x);
    const ry = reads(b, y);
    if (rx === undefined || ry === undefined) continue;
    const char = common(rx, ry);
    if (char === undefined) continue;
    const nx = new Set<number>();
    const ny = new Set<number>();
    advance(a, x, char, nx);
    advance(b, y, char, ny);
    for (const p of nx) for (const q of ny) queue.push([p, q]);
  }
  return false;
}
