// The bench's child processes: each measurement that must not share a process with another (a workload's steady
// state, a cold run, a memory probe) runs in a fresh Node process that reads its data from a file and prints JSON.
import { execFile } from "node:child_process";
import { unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let files = 0;

/** Writes `data` to a temporary JSON file, runs `use(file)`, then removes the file. */
export async function withDataFile(data, use) {
  const file = join(tmpdir(), `bench-${process.pid}-${++files}.json`);
  writeFileSync(file, JSON.stringify(data));
  try {
    return await use(file);
  } finally {
    unlinkSync(file);
  }
}

/** A failed child's reason: the error line of its stderr (Node ends a crash with its version), else the last line. */
function failureLine(text) {
  const lines = text.trim().split("\n");
  return lines.find((l) => /^\w*Error\b/.test(l)) ?? lines.pop();
}

/** Runs `node [...nodeArgs] script ...args`; resolves to the JSON it printed, or { error } (failureLine). */
export function runChild(script, args, { nodeArgs = [], timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    const argv = [...nodeArgs, script, ...args];
    execFile(process.execPath, argv, { maxBuffer: 16 << 20, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) resolve({ error: failureLine(stderr || err.message) });
      else resolve(JSON.parse(stdout));
    });
  });
}

/** Whether any schema of the cases refers to the official suite's remotes (the child then registers them). */
export const mentionsRemote = (cases) => cases.some((c) => JSON.stringify(c.schema ?? null).includes("localhost:1234"));
