// The markdown the bench prints: a header with the command and environment, one table per regime (quotable in the
// README as is), the memory table, the workload descriptions, exclusions, skips and notes.

export const fmtNs = (ns) =>
  ns < 1e4
    ? `${ns.toFixed(ns < 100 ? 1 : 0)} ns`
    : ns < 1e6
      ? `${(ns / 1e3).toFixed(ns < 1e5 ? 1 : 0)} µs`
      : `${(ns / 1e6).toFixed(2)} ms`;

const fmtBytes = (b) =>
  Math.abs(b) < 1e4
    ? `${Math.round(b)} B`
    : Math.abs(b) < 1e7
      ? `${(b / 1024).toFixed(1)} KiB`
      : `${(b / 1048576).toFixed(1)} MiB`;

const fmtRatio = (r) => (r === null || r === undefined ? "–" : `${r < 0.1 ? r.toFixed(3) : r.toFixed(2)}×`);
const cellWithRatio = (ns, ratio) => (ratio === null ? fmtNs(ns) : `${fmtNs(ns)} (${fmtRatio(ratio)})`);

function table(head, names, rows) {
  return [
    `| ${head.join(" | ")} | ${names.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|${names.map(() => "---:").join("|")}|`,
    ...rows.map(([cells, pick]) => `| ${cells.join(" | ")} | ${names.map(pick).join(" | ")} |`),
  ];
}

/** A library's cell when it has no figure: excluded by the verdict check, failed, or not run. */
const absent = (w, lib) => (w.excluded[lib] ? "excluded¹" : w.results[lib]?.error ? "failed¹" : "–");

/** A steady-state or mixed-host cell: the time and ratio, and for the shapes that count them, per declared property. */
function hotCell(w, lib) {
  const r = w.results[lib];
  if (r?.ns === undefined) return absent(w, lib);
  // A workload ajv does not take (the tool-call boundary): the ratio to the baseline build, when there is one.
  if (r.ratio === null && r.ratioToBaseline !== undefined)
    return `${fmtNs(r.ns)} (${fmtRatio(r.ratioToBaseline)} baseline)`;
  if (r.nsPerProperty === undefined) return cellWithRatio(r.ns, r.ratio);
  const ratio = r.ratio === null ? "" : `${fmtRatio(r.ratio)}; `;
  return `${fmtNs(r.ns)} (${ratio}${fmtNs(r.nsPerProperty)} per property)`;
}

const hotTable = (workloads, names) =>
  table(
    ["workload", "unit"],
    names,
    workloads.filter((w) => w.kind !== "invoke").map((w) => [[w.name, w.unit], (lib) => hotCell(w, lib)]),
  );

/**
 * The gateway's per-call path (kind "invoke"): per build, isValid alone, the host by hand (isValid and its own
 * dispatch awaited) and Execution.invoke, each with its ratio to the hand-made path (and to the baseline build's).
 */
function invokeTables(workloads) {
  return workloads
    .filter((w) => w.kind === "invoke")
    .flatMap((w) => {
      const builds = Object.keys(w.results).filter((n) => Object.hasOwn(w.results, `${n} isValid+host`));
      const cell = (r) => {
        if (r?.ns === undefined) return "–";
        const base = r.ratioToBaseline === undefined ? "" : `; ${fmtRatio(r.ratioToBaseline)} baseline`;
        return `${fmtNs(r.ns)} (${fmtRatio(r.ratio)}${base})`;
      };
      const ways = [
        ["isValid", " isValid"],
        ["isValid + host", " isValid+host"],
        ["Execution.invoke", ""],
      ];
      return [
        "",
        `${w.name}: median time per ${w.unit} (median of the per-round ratios to the same build's isValid + host):`,
        "",
        ...table(
          ["build"],
          ways.map(([label]) => label),
          builds.map((b) => [[b], (label) => cell(w.results[b + ways.find((x) => x[0] === label)[1]])]),
        ),
      ];
    });
}

/** Per-call time against the number of tools the call site cycles through (the workloads that count their tools). */
function toolCountTable(workloads, names) {
  const counted = workloads.filter((w) => w.toolCount && w.kind === "validate");
  if (counted.length < 2) return [];
  const rows = [...counted].sort((a, b) => a.toolCount - b.toolCount);
  return [
    "",
    "Per-call time against the number of tools (the hot set and the tool-count workloads):",
    "",
    ...table(
      ["tools", "workload"],
      names,
      rows.map((w) => [[String(w.toolCount), w.name], (lib) => hotCell(w, lib)]),
    ),
  ];
}

/** The long warm-up against steady state's, per workload measured in both: each library's time and ratio, short → long. */
function longAgainstShort(long, steady, names) {
  const both = long.filter((w) => steady.some((x) => x.name === w.name) && w.kind === "validate");
  if (!both.length) return [];
  const change = (w, lib) => {
    const a = steady.find((x) => x.name === w.name).results[lib];
    const b = w.results[lib];
    if (a?.ns === undefined || b?.ns === undefined) return "–";
    const ratios = a.ratio === null ? "" : `; ${fmtRatio(a.ratio)} → ${fmtRatio(b.ratio)} ajv`;
    return `${fmtNs(a.ns)} → ${fmtNs(b.ns)} (${fmtRatio(b.ns / a.ns)}${ratios})`;
  };
  return [
    "",
    "Long warm-up against steady state (separate processes): time per call, short → long (long / short; ratio to ajv, " +
      "short → long):",
    "",
    ...table(
      ["workload"],
      names,
      both.map((w) => [[w.name], (lib) => change(w, lib)]),
    ),
  ];
}

/** The sentence saying what the per-property figure is, when a row has one. */
function perPropertyNote(workloads) {
  const counted = workloads.filter((w) => w.declaredProperties).map((w) => w.name);
  if (!counted.length) return "";
  return (
    ` For ${counted.join(", ")}, the cell also gives the time per declared property (the time per validation ` +
    `divided by the number of properties the schema declares).`
  );
}

/** The line naming the validators whose warm-up stopped early on heavy calls, if any. */
function capped(workloads, { warmCalls }) {
  const early = workloads.flatMap((w) =>
    Object.entries(w.results)
      .filter(([, x]) => x.warmCallsPerFunction < warmCalls)
      .map(([lib, x]) => `${w.name}/${lib} ${x.warmCallsPerFunction}`),
  );
  return early.length ? ["", `Warm-up stopped early on heavy calls (calls per validator): ${early.join(", ")}.`] : [];
}

function coldTables(workloads, names) {
  const figure = (w, lib) => w.results[lib]?.ns !== undefined;
  const totals = table(
    ["workload", "per schema: compile + first calls"],
    names,
    workloads.map((w) => [
      [w.name, w.coldUnit],
      (lib) => (figure(w, lib) ? cellWithRatio(w.results[lib].ns, w.results[lib].ratio) : absent(w, lib)),
    ]),
  );
  const split = table(
    ["workload", "ratio to ajv: compile / first calls"],
    names,
    workloads.map((w) => [
      [w.name, w.coldUnit],
      (lib) =>
        figure(w, lib)
          ? `${fmtRatio(w.results[lib].compileRatio)} / ${fmtRatio(w.results[lib].callsRatio)}`
          : absent(w, lib),
    ]),
  );
  return [...totals, "", ...split];
}

function memoryTable(memory, labels, names) {
  return table(
    ["memory: retained heap per compiled schema, after gc (ratio to ajv)"],
    names,
    Object.entries(memory).map(([scenario, byLib]) => [
      [labels[scenario]],
      (lib) => {
        const m = byLib[lib];
        if (!m) return "–";
        if (m.error) return "failed¹";
        const base = byLib.ajv?.perSchema;
        return base ? `${fmtBytes(m.perSchema)} (${fmtRatio(m.perSchema / base)})` : fmtBytes(m.perSchema);
      },
    ]),
  );
}

const loads = (l) => l.map((x) => x.toFixed(2)).join(" / ");
const listed = (byName) => Object.entries(byName).map(([name, w]) => ({ name, ...w }));

function header({ command, clock, quick, started, seconds, node, platform, cpu, cores, loadAtStart, loadAtEnd }) {
  const timed = clock === "wall" ? "the wall clock" : "the process's CPU time (process.cpuUsage)";
  return [
    `# backplane-agent-runtime benchmark`,
    "",
    `- command: \`${command}\`${quick ? " (quick: for looking, not for quoting)" : ""}`,
    `- hot regimes timed by ${timed}`,
    `- date: ${started.toISOString()}; wall time ${seconds.toFixed(0)} s`,
    `- CPU model: ${cpu}; ${cores} cores`,
    `- Node ${node} (${platform})`,
    `- load average (1 / 5 / 15 min): ${loads(loadAtStart)} at the start, ${loads(loadAtEnd)} at the end`,
  ];
}

const seconds = (host) =>
  Object.entries(host.libraries)
    .map(([lib, h]) => `${lib} ${h.error ? "failed¹" : `${h.prepareSeconds.toFixed(1)} s`}`)
    .join(", ");

/** The whole printed report, as lines. */
export function markdown(r, names) {
  const { settings: s } = r;
  const lines = header(r.environment);
  if (Object.keys(r.steady).length) {
    lines.push("", `## Steady state`, "");
    lines.push(
      `Each library through its own copy of the timing loop; every compiled validator warmed with ` +
        `${s.warmCalls} calls (where one call takes over ${s.heavyCallMs} ms, ${s.warmCapMs / 1000} s of warm-up ` +
        `and at least ${s.warmFloor} calls); ${s.rounds} rounds of ≥ ${s.sampleMs} ms samples, interleaved ` +
        `with the order rotated. Cell: median time per unit (median of the per-round ratios to ajv; below 1 is ` +
        `faster than ajv).${perPropertyNote(listed(r.steady))}`,
    );
    lines.push("", ...hotTable(listed(r.steady), names), ...capped(listed(r.steady), s));
    lines.push(...toolCountTable(listed(r.steady), names), ...invokeTables(listed(r.steady)));
  }
  if (Object.keys(r.long).length) {
    lines.push("", `## Long warm-up`, "");
    lines.push(
      `As steady state, but every compiled validator is warmed with ${s.longWarmCalls} calls instead of ` +
        `${s.warmCalls}. Cell: as in steady state.`,
    );
    lines.push("", ...hotTable(listed(r.long), names), ...capped(listed(r.long), { warmCalls: s.longWarmCalls }));
    lines.push(...toolCountTable(listed(r.long), names), ...invokeTables(listed(r.long)));
    lines.push(...longAgainstShort(listed(r.long), listed(r.steady), names));
  }
  if (Object.keys(r.rotating).length) {
    lines.push("", `## Rotating call site`, "");
    lines.push(
      `As steady state, but each schema is compiled ${s.copies} times (each from its own copy) and its calls rotate ` +
        `over the copies, so one call site meets many compiled schemas of one shape, as in a host with many tools. ` +
        `Cell: as in steady state.${perPropertyNote(listed(r.rotating))}`,
    );
    lines.push("", ...hotTable(listed(r.rotating), names), ...capped(listed(r.rotating), s));
  }
  if (Object.keys(r.cold).length) {
    lines.push("", `## Cold`, "");
    lines.push(
      `A fresh process per library, workload and round (${s.coldRounds} rounds, order rotated): compile each ` +
        `schema, then make its first calls. Cell: median per schema of compile + first calls (median of the ` +
        `per-round ratios to ajv); the second table splits the ratio into compile and first calls.`,
    );
    lines.push("", ...coldTables(listed(r.cold), names));
  }
  if (Object.keys(r.mixed).length) {
    const host = r.mixedHost;
    lines.push("", `## Mixed host`, "");
    lines.push(
      `A host with a large catalog, where shared evaluator code sees every shape: one process per library first ` +
        `compiles the validators of every workload of this run (${host.workloads.length}: ` +
        `${host.workloads.join(", ")}) and warms each as steady state does, then each workload is timed in turn ` +
        `with steady state's rounds and statistics, interleaved across the libraries' processes with the order ` +
        `rotated. Cell: as in steady state.${perPropertyNote(listed(r.mixed))} Set-up (compile and warm every ` +
        `workload): ${seconds(host)}.`,
    );
    lines.push("", ...hotTable(listed(r.mixed), names), ...capped(listed(r.mixed), s));
  }
  if (r.memory) lines.push("", `## Memory`, "", ...memoryTable(r.memory, r.memoryLabels, names));
  lines.push("", `Workloads:`, ...listed(r.described).map((w) => `- **${w.name}**: ${w.description}`));
  lines.push("", `Libraries:`, ...r.peers.map((p) => `- ${p.name}: ${p.note}`));
  const exclusions = listed(r.described).flatMap((w) =>
    Object.entries(w.excluded).map(([lib, why]) => `- ${w.name}/${lib}: ${why}`),
  );
  if (exclusions.length) lines.push("", `¹ excluded (a verdict differs from the expected one, or compile fails):`);
  lines.push(...exclusions, "", `Notes:`, ...r.notes.map((n) => (n.startsWith("-") ? n : `- ${n}`)));
  return lines;
}
