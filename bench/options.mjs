// Command-line options: npm run bench [-- --quick] [-- --only a,b]
// [-- --regime steady|rotating|long|cold|mixed|host|both|all] [-- --out file]
import { join } from "node:path";
import { REPO } from "./data.mjs";

const FULL = {
  warmCalls: 5000,
  longWarmCalls: 20000,
  warmFloor: 1000,
  copies: 8,
  warmCapMs: 4000,
  heavyCallMs: 0.2,
  rounds: 15,
  sampleMs: 25,
  coldRounds: 3,
  catalogSize: 5000,
};
const QUICK = {
  warmCalls: 200,
  longWarmCalls: 800,
  warmFloor: 50,
  copies: 8,
  warmCapMs: 500,
  heavyCallMs: 0.05,
  rounds: 5,
  sampleMs: 5,
  coldRounds: 1,
  catalogSize: 1000,
};
const REGIMES = {
  steady: ["steady"],
  rotating: ["rotating"],
  long: ["long"],
  cold: ["cold"],
  mixed: ["mixed"],
  // What a host feels: steady state beside the long warm-up (the hot set, the tool counts, Execution.invoke).
  host: ["steady", "long"],
  both: ["steady", "cold"],
  all: ["steady", "rotating", "long", "cold", "mixed"],
};
const REGIME_LIST = "steady, rotating, long, cold, mixed, host (steady and long), both (steady and cold) or all";
const USAGE = "--quick, --only <names>, --regime steady|rotating|long|cold|mixed|host|both|all, --out <file>";

/** Parses argv against the known workload names; returns { error } on anything it does not understand. */
export function parseOptions(argv, names) {
  const opts = { quick: false, only: null, regimes: REGIMES.both, out: join(REPO, "bench", "results.json") };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--quick") opts.quick = true;
    else if (arg === "--only") {
      opts.only = new Set(
        String(argv[++i] ?? "")
          .split(",")
          .filter(Boolean),
      );
      const unknown = [...opts.only].filter((n) => !names.includes(n));
      if (!opts.only.size || unknown.length)
        return { error: `--only takes a comma-separated list of: ${names.join(", ")}` };
    } else if (arg === "--regime") {
      const regime = String(argv[++i]);
      opts.regimes = Object.hasOwn(REGIMES, regime) ? REGIMES[regime] : null;
      if (!opts.regimes) return { error: `--regime takes ${REGIME_LIST}` };
    } else if (arg === "--out") opts.out = argv[++i];
    else return { error: `unknown option ${arg} (${USAGE})` };
  }
  return { ...opts, settings: opts.quick ? QUICK : FULL, wanted: (name) => !opts.only || opts.only.has(name) };
}
