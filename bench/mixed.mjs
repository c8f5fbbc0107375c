// The mixed host: a host with a large catalog, where a library's shared evaluator code sees every shape. One process
// per library (mixed-child.mjs) loads its library (all at once: nothing is timed yet), then compiles and warms the
// validators of every workload of the run, one library at a time; then each workload is timed in turn with steady state's rounds and statistics, the samples interleaved
// across the libraries' processes with the order rotated each round (a process waiting for its next request is idle).
import { fork } from "node:child_process";
import { clearTimeout, setTimeout } from "node:timers";
import { fileURLToPath } from "node:url";
import { mentionsRemote, withDataFile } from "./child.mjs";
import { rotated, summary } from "./stats.mjs";

const CHILD = fileURLToPath(new URL("./mixed-child.mjs", import.meta.url));
const PREPARE_MS = 1_800_000;
const REQUEST_MS = 300_000;

const lastLine = (text) => text.trim().split("\n").pop() ?? "";

/** One library's host process: request(op, fields, timeoutMs) resolves to its answer; close() ends the process. */
function host(lib, file) {
  const child = fork(CHILD, [lib, file], { execArgv: [], stdio: ["ignore", "ignore", "pipe", "ipc"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4096)));
  const pending = new Map();
  let ids = 0;
  let gone = null;
  let timedOut = false;
  const settle = (p) => {
    pending.delete(p.id);
    clearTimeout(p.timer);
  };
  child.on("message", ({ id, value, error }) => {
    const p = pending.get(id);
    if (!p) return;
    settle(p);
    if (error === undefined) p.resolve(value);
    else p.reject(new Error(error));
  });
  child.on("exit", (code, signal) => {
    gone = timedOut ? "timed out" : lastLine(stderr) || `exited (${signal ?? code})`;
    for (const p of [...pending.values()]) {
      settle(p);
      p.reject(new Error(gone));
    }
  });
  const request = (op, fields, timeoutMs = REQUEST_MS) =>
    new Promise((resolve, reject) => {
      if (gone) return reject(new Error(gone));
      const p = { id: ++ids, resolve, reject };
      p.timer = setTimeout(() => {
        timedOut = true;
        child.kill();
      }, timeoutMs);
      pending.set(p.id, p);
      child.send({ op, id: p.id, ...fields });
    });
  const close = () =>
    new Promise((resolve) => {
      if (gone) return resolve();
      child.once("exit", resolve);
      child.send({ op: "exit" });
      setTimeout(() => child.kill(), 10_000).unref();
    });
  return { request, close };
}

/**
 * workloads: [{ name, kind, cases, libs }], `libs` being the libraries that take part in that workload (the others
 * are excluded from it and their hosts never compile it). Returns { host: { lib: { prepareSeconds } | { error } },
 * results: { workload: { lib: result | { error } } } }, each result as steady state gives it.
 */
export function measureMixed(workloads, libs, settings, log, baseline = "ajv") {
  const data = { workloads, settings, remotes: workloads.some((w) => mentionsRemote(w.cases)) };
  return withDataFile(data, async (file) => {
    const hosts = new Map();
    const hostInfo = {};
    const failed = (lib, e) => {
      hostInfo[lib] = { error: e.message };
      log(`- mixed host: ${lib} failed (${e.message})`);
    };
    try {
      for (const lib of libs) hosts.set(lib, host(lib, file));
      const loads = await Promise.allSettled(libs.map((lib) => hosts.get(lib).request("load", {}, PREPARE_MS)));
      for (const [i, lib] of libs.entries()) {
        if (loads[i].status === "rejected") {
          failed(lib, loads[i].reason);
          continue;
        }
        const t0 = Date.now();
        try {
          await hosts.get(lib).request("prepare", {}, PREPARE_MS);
          hostInfo[lib] = { prepareSeconds: (Date.now() - t0) / 1000 };
        } catch (e) {
          failed(lib, e);
        }
      }
      const live = (lib) => !hostInfo[lib].error;
      const results = {};
      for (const w of workloads) {
        const out = {};
        const facts = new Map();
        const perCall = new Map();
        const drop = (lib, e) => {
          facts.delete(lib);
          perCall.delete(lib);
          out[lib] = { error: e.message };
          log(`- ${w.name} (mixed): ${lib} failed (${e.message})`);
        };
        const timed = w.libs.filter(live);
        for (const lib of timed) {
          try {
            facts.set(lib, await hosts.get(lib).request("calibrate", { workload: w.name }));
            perCall.set(lib, []);
          } catch (e) {
            drop(lib, e);
          }
        }
        for (let r = 0; r < settings.rounds; r++) {
          for (const lib of rotated(timed, r).filter((l) => facts.has(l))) {
            try {
              perCall.get(lib).push(await hosts.get(lib).request("sample", { workload: w.name }));
            } catch (e) {
              drop(lib, e);
            }
          }
        }
        results[w.name] = { ...out, ...summary([...facts.values()], perCall, baseline) };
      }
      return { host: hostInfo, results };
    } finally {
      for (const h of hosts.values()) await h.close();
    }
  });
}
