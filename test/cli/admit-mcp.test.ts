/**
 * `backplane-schema admit --mcp`, run as a process against live stdio servers: the pinned reference servers
 * (offline, from node_modules) and a test server that pages, loops or hangs. Every child records its pid through a
 * preloaded module, and each test checks that the child is gone once the CLI has exited.
 */

import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { alive, script, SERVERS, start } from "../live/servers.js";
import { repoRoot, runCli, type CliRun } from "./helpers.js";
import { PAGED_SERVER, PAGES } from "./mcp-test-server.js";

const testServer = join(repoRoot, "build", "test", "cli", "mcp-test-server.js");
const memory = script("@modelcontextprotocol/server-memory");
let dir = "";
let preload = "";
let runs = 0;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-cli-mcp-"));
  preload = join(dir, "record-pid.mjs");
  writeFileSync(
    preload,
    'import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.BACKPLANE_PID_FILE, String(process.pid));\n',
  );
});

after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** POSIX single quotes, as `--mcp` splits its command line. */
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/** `node <script> [args…]` with the pid-recording preload, as one `--mcp` string. */
const serverCommand = (scriptPath: string, ...args: string[]): string =>
  [process.execPath, "--import", pathToFileURL(preload).href, scriptPath, ...args].map(quote).join(" ");

/** Runs `admit --mcp <command> …rest` and returns the run and the pid the child recorded (if it started). */
function admitMcp(command: string, rest: readonly string[] = []): { run: CliRun; pid: number | undefined } {
  const pidFile = join(dir, `pid-${++runs}`);
  // Quarantine, so that a server's draft-07 tools are listed beside the others rather than refusing the batch.
  const mode = rest.includes("--strict") ? [] : ["--quarantine"];
  const run = runCli(["admit", "--mcp", command, ...mode, ...rest], {
    env: { BACKPLANE_PID_FILE: pidFile, MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
  });
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(pidFile, "utf8"));
  } catch {
    pid = undefined;
  }
  return { run, pid };
}

function assertStopped(pid: number | undefined): void {
  assert.ok(pid !== undefined && pid > 0, "the server recorded its pid");
  assert.equal(alive(pid), false, `the server (pid ${pid}) is stopped when the CLI exits`);
}

/** Exit 2 with one `backplane-schema: …` line on stderr and nothing on stdout. */
function assertOneLineFailure(run: CliRun, mentions: RegExp): void {
  assert.equal(run.status, 2, run.stderr);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^backplane-schema: [^\n]+\n$/);
  assert.match(run.stderr, mentions);
}

/** Table rows by tool name. */
function rows(stdout: string): Map<string, string[]> {
  const lines = stdout.split("\n");
  assert.match(lines[0]!, /^TOOL\s+REVISION\s+STATUS\s+REASON$/);
  const table = lines.slice(1, lines.indexOf(""));
  return new Map(table.map((line) => [line.split(/\s+/)[0]!, line.split(/\s{2,}/)]));
}

describe("admit --mcp against the reference memory server", () => {
  test("lists the same tools the SDK client lists; draft-07 schemas are quarantined, so none is admitted (exit 1)", async () => {
    const spec = SERVERS.find((s) => s.backend === "memory")!;
    const direct = await start(spec);
    const names = direct.tools.map((t) => t.name);
    await direct.stop();

    const { run, pid } = admitMcp(serverCommand(memory));
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr, "");
    const table = rows(run.stdout);
    assert.deepEqual([...table.keys()], names);
    for (const [, row] of table) {
      assert.equal(row[1], "0.6.3", "the revision is the server's reported version");
      assert.equal(row[2], "quarantined");
      assert.match(row[3]!, /^unsupported_capability\/dialect_unsupported: /);
    }
    assert.match(
      run.stdout,
      /\nMCP server memory-server 0\.6\.3: admitted \(quarantine\): 0 accepted, 9 quarantined\n$/,
    );
    assertStopped(pid);
  });

  test("--draft07 upgrade --strict admits all nine, listing the upgraded schemas; --revision overrides", () => {
    const { run, pid } = admitMcp(serverCommand(memory), ["--draft07", "upgrade", "--strict", "--revision", "r-7"]);
    assert.equal(run.status, 0, run.stderr);
    const table = rows(run.stdout);
    assert.equal(table.size, 9);
    for (const [, row] of table) {
      assert.equal(row[1], "r-7");
      assert.equal(row[2], "accepted");
      assert.match(row[3]!, /^draft-07 upgraded: inputSchema \(1 change\(s\)\), outputSchema \(1 change\(s\)\)$/);
    }
    assert.match(
      run.stdout,
      /admitted \(strict\): 9 accepted, 0 quarantined, 18 schema\(s\) upgraded from draft-07\n$/,
    );
    assertStopped(pid);
  });

  test("--strict without --draft07 refuses the batch (exit 1); a limit hit refuses it with exit 3", () => {
    const strict = admitMcp(serverCommand(memory), ["--strict"]);
    assert.equal(strict.run.status, 1, strict.run.stderr);
    assert.match(strict.run.stdout, /^MCP server memory-server 0\.6\.3: batch rejected \(strict\)\n/);
    assert.match(strict.run.stdout, /error\s+unsupported_capability\/schema_rejected/);
    assertStopped(strict.pid);

    const limited = admitMcp(serverCommand(memory), ["--draft07", "upgrade", "--limit", "maxSchemaNodes=3"]);
    assert.equal(limited.run.status, 3, limited.run.stderr);
    assert.match(limited.run.stdout, /error\s+execution_failure\/schema_rejected/);
    assert.match(limited.run.stdout, /cause\s+execution_failure\/limit_exceeded/);
    assertStopped(limited.pid);
  });
});

describe("admit --mcp against the other reference servers", () => {
  for (const [pkg, args, backend, count] of [
    ["@modelcontextprotocol/server-sequential-thinking", [], "sequential-thinking-server", 1],
    ["@modelcontextprotocol/server-filesystem", ["<dir>"], "secure-filesystem-server", 14],
  ] as const) {
    test(`${pkg}: every tool admitted strictly with --draft07 upgrade`, () => {
      const { run, pid } = admitMcp(serverCommand(script(pkg), ...args.map((a) => (a === "<dir>" ? dir : a))), [
        "--strict",
        "--draft07",
        "upgrade",
      ]);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(rows(run.stdout).size, count);
      assert.match(run.stdout, new RegExp(`MCP server ${backend} \\S+: admitted \\(strict\\): ${count} accepted`));
      assertStopped(pid);
    });
  }
});

describe("admit --mcp: paging, failures and bounds", () => {
  test("follows nextCursor through every page", () => {
    const { run, pid } = admitMcp(serverCommand(testServer, "paged"));
    assert.equal(run.status, 0, run.stderr);
    const table = rows(run.stdout);
    assert.deepEqual(
      [...table.keys()],
      PAGES.flat().map((t) => t.name),
    );
    assert.equal(table.get("first")![2], "accepted");
    assert.equal(table.get("second")![2], "quarantined");
    assert.equal(table.get("third")![2], "accepted");
    assert.ok(run.stdout.includes(`MCP server ${PAGED_SERVER.name} ${PAGED_SERVER.version}: admitted (quarantine)`));
    assertStopped(pid);
  });

  test("a server that repeats its cursor is refused (exit 2) and stopped", () => {
    const { run, pid } = admitMcp(serverCommand(testServer, "loop"));
    assertOneLineFailure(run, /repeated the tools\/list cursor "again"/);
    assertStopped(pid);
  });

  test("a server that never answers (and ignores SIGTERM) is killed after --timeout-ms", () => {
    const { run, pid } = admitMcp(serverCommand(testServer, "hang"), ["--timeout-ms", "1500"]);
    assertOneLineFailure(run, /did not list its tools within 1500 ms \(--timeout-ms\)/);
    assertStopped(pid);
  });

  test("a server that exits at once: one line quoting the end of its stderr", () => {
    const crash = join(dir, "crash.mjs");
    writeFileSync(crash, 'console.error("starting…\\nfatal: no API key configured");\nprocess.exit(1);\n');
    const { run, pid } = admitMcp(serverCommand(crash));
    assertOneLineFailure(run, /failed before listing its tools: .*its stderr ended with: starting… fatal: no API key/);
    assertStopped(pid);
  });

  test("a command that does not exist (exit 2)", () => {
    assertOneLineFailure(
      admitMcp("/nonexistent/mcp-server --flag").run,
      /cannot start the MCP server .*no such command/,
    );
  });

  test("usage errors exit 2 before anything is spawned", () => {
    const example = join(repoRoot, "fixtures", "catalogs", "example.json");
    assertOneLineFailure(runCli(["admit", example, "--mcp", "node x"]), /either a catalog file or --mcp/);
    assertOneLineFailure(runCli(["admit", example, "--timeout-ms", "10"]), /--timeout-ms applies only to admit --mcp/);
    assertOneLineFailure(runCli(["admit", "--mcp", "node x", "--backend", "b"]), /--backend applies only to a catalog/);
    for (const bad of ["0", "1.5", "ten", "99999999999"])
      assertOneLineFailure(runCli(["admit", "--mcp", "node x", "--timeout-ms", bad]), /--timeout-ms must be/);
    assertOneLineFailure(runCli(["admit", "--mcp", "node 'x"]), /unterminated ' quote/);
    assertOneLineFailure(runCli(["admit", "--mcp", "   "]), /--mcp needs a command/);
    assertOneLineFailure(runCli(["admit", "--mcp", ""]), /--mcp needs a value/);
  });

  test("without @modelcontextprotocol/sdk installed, --mcp says to install it (exit 2)", () => {
    // The CLI as a package installs it: its own files and its runtime dependencies, no SDK.
    const pkg = join(dir, "installed");
    mkdirSync(join(pkg, "node_modules"), { recursive: true });
    cpSync(join(repoRoot, "build", "src"), join(pkg, "src"), { recursive: true });
    for (const dependency of ["decimal.js", "punycode"])
      symlinkSync(join(repoRoot, "node_modules", dependency), join(pkg, "node_modules", dependency), "dir");
    const cli = join(pkg, "src", "cli", "main.js");
    const run = runCli(["admit", "--mcp", serverCommand(memory), "--quarantine"], { cli, cwd: pkg });
    assertOneLineFailure(
      run,
      /admit --mcp needs the MCP SDK, which is not installed: npm install @modelcontextprotocol\/sdk$/m,
    );
    // Everything else works without it.
    const example = join(repoRoot, "fixtures", "catalogs", "example.json");
    const admitted = runCli(["admit", example, "--quarantine"], { cli, cwd: pkg });
    assert.equal(admitted.status, 0, admitted.stderr);
  });
});
