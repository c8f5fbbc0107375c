// Small statistics shared by the regimes.

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The first and third quartiles (nearest rank): how far the rounds spread around the median. */
export const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor((s.length - 1) / 4)], s[Math.ceil((3 * (s.length - 1)) / 4)]];
};

/** The median of the per-round ratios of `xs` to `base` (same rounds, same order), or null without a baseline. */
export const medianRatio = (xs, base) => (base ? median(xs.map((x, i) => x / base[i])) : null);

/** Round r's order: the libraries rotated by r, so no library always runs first or right after another. */
export const rotated = (items, r) => {
  const k = r % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
};

/**
 * One workload's figures. `perCall` maps each library to its ns per call in each round (same rounds, same order);
 * `facts` gives, per library, { name, callsPerPass, passesPerSample, warmCallsPerFunction }. Per library: the median ns
 * per call and the median of the per-round ratios to the `baseline` library, with their spread and the warm-up it got;
 * with a build named "baseline" among them (BENCH_BASELINE), the median and quartiles of the per-round ratios to it.
 */
export function summary(facts, perCall, baseline) {
  const base = perCall.get(baseline);
  // Another build of this library (BENCH_BASELINE): each figure's ratio to it too, from the same rounds.
  const build = perCall.get("baseline");
  const out = {};
  for (const { name, ...timing } of facts) {
    const xs = perCall.get(name);
    out[name] = {
      ns: median(xs),
      ratio: medianRatio(xs, base),
      ...(build
        ? {
            ratioToBaseline: medianRatio(xs, build),
            ratioToBaselineQuartiles: quartiles(xs.map((x, i) => x / build[i])),
          }
        : {}),
      ratioQuartiles: base ? quartiles(xs.map((x, i) => x / base[i])) : null,
      rounds: xs.length,
      ...timing,
      minNs: Math.min(...xs),
      maxNs: Math.max(...xs),
    };
  }
  return out;
}
