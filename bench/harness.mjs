// Timing: warm up, calibrate a batch size per library (>= sampleMs per sample), then rounds interleaved round-robin.
let sink = 0;
export const consume = (x) => {
  sink = (sink + (typeof x === "number" ? x : x ? 1 : 0)) | 0;
};
export const sinkValue = () => sink;

async function runBatch(entry, iters) {
  const { op } = entry;
  let acc = 0;
  const t0 = process.hrtime.bigint();
  if (entry.async) for (let i = 0; i < iters; i++) acc += await op();
  else for (let i = 0; i < iters; i++) acc += op();
  const t1 = process.hrtime.bigint();
  consume(acc);
  return Number(t1 - t0);
}

/** Warms every entry up and picks iterations per sample so one sample lasts at least sampleMs. */
async function calibrate(entry, { warmupMs, sampleMs }) {
  const warmEnd = process.hrtime.bigint() + BigInt(Math.round(warmupMs * 1e6));
  let iters = 1;
  let ns = await runBatch(entry, iters);
  while (process.hrtime.bigint() < warmEnd || ns < sampleMs * 1e6) {
    if (ns < sampleMs * 1e6)
      iters = Math.min(iters * 2, Math.max(iters + 1, Math.ceil((iters * sampleMs * 1e6 * 1.2) / Math.max(ns, 1))));
    ns = await runBatch(entry, iters);
    if (ns > 4 * sampleMs * 1e6 && iters === 1) break;
  }
  entry.iters = iters;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * entries: [{ name, op, async?, unitsPerOp }]. Returns per entry the median ns per unit and, when a `baseline`
 * entry is present, the median of the per-round ratios to it.
 */
export async function measure(entries, { rounds, warmupMs, sampleMs, baseline = "ajv" }) {
  for (const e of entries) await calibrate(e, { warmupMs, sampleMs });
  const perRound = new Map(entries.map((e) => [e.name, []]));
  for (let r = 0; r < rounds; r++) {
    const k = r % entries.length;
    for (const e of [...entries.slice(k), ...entries.slice(0, k)]) {
      const ns = await runBatch(e, e.iters);
      perRound.get(e.name).push(ns / (e.iters * e.unitsPerOp));
    }
  }
  const base = perRound.get(baseline);
  const out = {};
  for (const e of entries) {
    const xs = perRound.get(e.name);
    out[e.name] = {
      ns: median(xs),
      ratio: base ? median(xs.map((x, i) => x / base[i])) : null,
      rounds: xs.length,
      itersPerSample: e.iters,
      minNs: Math.min(...xs),
      maxNs: Math.max(...xs),
    };
  }
  return out;
}
