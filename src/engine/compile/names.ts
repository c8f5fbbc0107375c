/** Names that are not known: the known one most likely meant ("did you mean"), and the message that says so. */

/**
 * The known name `name` is most likely a typo of: the closest at an edit distance (insertions, deletions,
 * substitutions, adjacent transpositions) of at most 2 and less than half the name's length, or the same name in
 * another case.
 */
export function nearMiss(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate, 2);
    if (distance < bestDistance && distance <= 2 && distance * 2 < name.length) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance of `a` and `b`, or `cap + 1` once it is known to exceed `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1);
      current.push(d);
    }
    if (Math.min(...current) > cap) return cap + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** `unknown <what> <kind> "name" (did you mean "x"? known: a, b, c)`: the message of a name not in `known`. */
export function unknownName(what: string, kind: string, name: string, known: readonly string[]): string {
  const guess = nearMiss(name, known);
  const hint = guess === undefined ? "" : `did you mean ${JSON.stringify(guess)}? `;
  return `unknown ${what} ${kind} ${JSON.stringify(name)} (${hint}known: ${known.join(", ") || "none"})`;
}
