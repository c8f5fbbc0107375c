/**
 * Issue 31 #5: every input the CLI reads is capped (`--max-input-bytes`, default 64 MiB): a file, stdin, a pins file,
 * a registry schema, and an `--mcp` server's messages and listed tools. Over the cap, reading stops and the command
 * exits 3 (a limit: no verdict) with one line naming the input and the flag; `admit /dev/zero` returns.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cliPath, repoRoot, runCli, type CliRun } from "./helpers.js";

const MIB_64 = 64 * 1024 * 1024;
let dir = "";
const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-input-cap-"));
});
after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** Exit 3, nothing on stdout, one line: `<what> <input> is larger than <n> bytes (the input cap; --max-input-bytes)`. */
function assertOverCap(run: CliRun, what: string, bytes: number): void {
  assert.equal(run.status, 3, run.stdout + run.stderr);
  assert.equal(run.stdout, "");
  assert.equal(
    run.stderr,
    `backplane-schema: ${what} is larger than ${bytes} bytes (the input cap; --max-input-bytes)\n`,
  );
}

describe("a file that never ends", () => {
  test("admit /dev/zero returns, exit 3, naming the cap", () => {
    assertOverCap(runCli(["admit", "/dev/zero"]), "catalog /dev/zero", MIB_64);
  });

  test("validate: /dev/zero as the schema or an instance, and on stdin", () => {
    const schema = write("schema.json", "{}");
    assertOverCap(runCli(["validate", "/dev/zero", schema]), "schema /dev/zero", MIB_64);
    assertOverCap(runCli(["validate", schema, "/dev/zero"]), "instance /dev/zero", MIB_64);
    const zero = openSync("/dev/zero", "r");
    try {
      const run = spawnSync(process.execPath, [cliPath, "validate", schema, "-"], {
        cwd: repoRoot,
        stdio: [zero, "pipe", "pipe"],
        encoding: "utf8",
        timeout: 60_000,
      });
      assertOverCap({ status: run.status, stdout: run.stdout, stderr: run.stderr }, "instance <stdin>", MIB_64);
    } finally {
      closeSync(zero);
    }
  });
});

describe("--max-input-bytes", () => {
  test("an input of exactly the cap is read; one byte more is refused", () => {
    const schema = write("exact.json", '{"type": "integer"}'); // 19 bytes
    const instance = write("seven.json", "7");
    assert.equal(runCli(["validate", schema, instance, "--max-input-bytes", "19"]).status, 0);
    assertOverCap(runCli(["validate", schema, instance, "--max-input-bytes", "18"]), `schema ${schema}`, 18);
    assertOverCap(
      runCli(["validate", "-", instance, "--max-input-bytes=18"], { input: '{"type": "integer"}' }),
      "schema <stdin>",
      18,
    );
  });

  test("a pins file and a registry schema are capped too", () => {
    const catalog = write(
      "catalog.json",
      JSON.stringify([{ name: "t", revision: "1", inputSchema: { type: "object" } }]),
    );
    const pins = write("pins.json", JSON.stringify({ t: "x".repeat(200) }));
    assertOverCap(runCli(["admit", catalog, "--pins", pins, "--max-input-bytes", "150"]), `pins file ${pins}`, 150);
    mkdirSync(join(dir, "registry"));
    const big = write(
      "registry/big.json",
      JSON.stringify({ $id: "https://example.test/big", description: "x".repeat(200) }),
    );
    const run = runCli([
      "validate",
      write("s.json", "{}"),
      write("i.json", "1"),
      "--registry",
      join(dir, "registry"),
      "--max-input-bytes",
      "150",
    ]);
    assertOverCap(run, `registry schema ${big}`, 150);
  });

  test("values that are not a whole number of bytes from 1 are usage errors (exit 2)", () => {
    const schema = write("any.json", "{}");
    for (const value of ["0", "-1", "1e3", "12.5", "many", "99999999999999999"]) {
      const run = runCli(["validate", schema, schema, "--max-input-bytes", value]);
      assert.equal(run.status, 2, `${value}: ${run.stderr}`);
      assert.match(run.stderr, /^backplane-schema: --max-input-bytes must be a whole number of bytes from 1 to /);
    }
  });

  test("--help documents the flag and its default", () => {
    assert.match(
      runCli(["--help"]).stdout,
      /--max-input-bytes <n> +The cap on each file or stdin read [^]*\(default\s+67108864, 64 MiB\)/,
    );
  });
});

describe("admit --mcp under the cap", () => {
  const testServer = join(repoRoot, "build", "test", "cli", "mcp-test-server.js");
  const server = (mode: string): string => [process.execPath, testServer, mode].map((w) => `'${w}'`).join(" ");

  test("one message over the cap: exit 3, naming the server and the flag", () => {
    const run = runCli(["admit", "--mcp", server("large"), "--max-input-bytes", "3000"]);
    assert.equal(run.status, 3, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /^backplane-schema: the MCP server ".*" sent a message larger than 3000 bytes \(the input cap; --max-input-bytes\)\n$/,
    );
    assert.equal(runCli(["admit", "--mcp", server("large")]).status, 0, "under the default cap it is admitted");
  });

  test("pages without end: stopped once the tools listed pass the cap (exit 3), before --timeout-ms", () => {
    const run = runCli(["admit", "--mcp", server("endless"), "--max-input-bytes", "5000", "--timeout-ms", "50000"]);
    assert.equal(run.status, 3, run.stdout + run.stderr);
    assert.match(run.stderr, /sent tools larger than 5000 bytes \(the input cap; --max-input-bytes\)\n$/);
  });
});
