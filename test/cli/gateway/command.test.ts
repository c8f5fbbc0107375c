/** `backplane-schema gateway`'s command line: every usage error is one line on stderr and exit 2, before any server starts. */

import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { installFolder } from "../../../src/cli/gateway/sdk.js";
import { repoRoot, runCli } from "../helpers.js";

let dir = "";
before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-gateway-cli-"));
  writeFileSync(join(dir, "ok.json"), JSON.stringify({ mcpServers: { a: { command: "/nonexistent" } } }));
  writeFileSync(join(dir, "unknown.json"), JSON.stringify({ mcpServers: { a: { command: "x", autoApprove: [] } } }));
  writeFileSync(join(dir, "token"), "a-token-of-at-least-16-characters\n");
  writeFileSync(join(dir, "short"), "short\n");
  writeFileSync(join(dir, "pins.json"), '{"a__x": 1}');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const usage: [string[], RegExp][] = [
  [["gateway"], /gateway needs --config <file>/],
  [["gateway", "--config", "missing.json"], /cannot read configuration file missing\.json: no such file/],
  [["gateway", "--config", "unknown.json"], /mcpServers\.a: unknown field "autoApprove"/],
  [["gateway", "--config", "ok.json", "extra"], /takes no positional arguments/],
  [["gateway", "--config", "ok.json", "--bogus"], /unknown option --bogus/],
  [
    ["gateway", "--config", "ok.json", "--http", "0.0.0.0:8080", "--token-file", "token"],
    /not a loopback address: pass --allow-remote/,
  ],
  [["gateway", "--config", "ok.json", "--http", "127.0.0.1:8080"], /--http needs --token-file/],
  [["gateway", "--config", "ok.json", "--http", "127.0.0.1:8080", "--token-file", "short"], /at least 16 characters/],
  [["gateway", "--config", "ok.json", "--http", "localhost"], /--http must be host:port/],
  [["gateway", "--config", "ok.json", "--token-file", "token"], /--token-file applies only with --http/],
  [["gateway", "--config", "ok.json", "--pins-mode", "enforce"], /--pins-mode needs --pins/],
  [
    ["gateway", "--config", "ok.json", "--pins", "p.json", "--pins-mode", "strict"],
    /--pins-mode must be one of tofu, enforce/,
  ],
  [
    ["gateway", "--config", "ok.json", "--pins", "pins.json"],
    /pins file pins\.json: the pin of "a__x" is not a string/,
  ],
  [["gateway", "--config", "ok.json", "--audit-values"], /--audit-values needs --audit/],
  [["gateway", "--config", "ok.json", "--call-timeout", "0"], /--call-timeout must be a whole number from 1/],
  [
    ["gateway", "--config", "ok.json", "--max-message-bytes", "10"],
    /--max-message-bytes must be a whole number from 1024/,
  ],
  [["gateway", "--config", "ok.json", "--hidden-text", "strip"], /--hidden-text must be one of off, report, refuse/],
  [["gateway", "--config", "ok.json", "--draft07", "maybe"], /--draft07 must be one of reject, upgrade/],
  [["gateway", "--config", "ok.json", "--limit", "maxNothing=1"], /unknown limit "maxNothing"/],
  [["gateway", "review", "--config", "ok.json"], /gateway review needs --pins <file>/],
  [["gateway", "--config", "-"], /--config needs a file, not -/],
];

describe("gateway usage errors", () => {
  for (const [args, message] of usage) {
    test(args.slice(1).join(" "), () => {
      const run = runCli(args, { cwd: dir });
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.equal(run.stderr.split("\n").length, 2, "one line");
      assert.equal(run.stdout, "");
    });
  }

  test("without @modelcontextprotocol/sdk installed, the gateway says in one line what to install (exit 2)", () => {
    // The CLI as a package installs it: its own files and its runtime dependencies, no SDK.
    const pkg = join(dir, "installed");
    mkdirSync(join(pkg, "node_modules"), { recursive: true });
    cpSync(join(repoRoot, "build", "src"), join(pkg, "src"), { recursive: true });
    symlinkSync(join(repoRoot, "node_modules", "punycode"), join(pkg, "node_modules", "punycode"), "dir");
    const cli = join(pkg, "src", "cli", "main.js");
    const run = runCli(["gateway", "--config", join(dir, "ok.json")], { cli, cwd: pkg });
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      "backplane-schema: gateway needs the MCP SDK 1.x, which is not installed beside this package: " +
        `npm install @modelcontextprotocol/sdk@1 in ${pkg} (a global install: npm install -g @modelcontextprotocol/sdk@1)\n`,
    );
  });

  test("the folder the missing-SDK line names: the project holding the package, or the package itself", () => {
    const file = "dist/cli/gateway/sdk.js";
    assert.equal(installFolder(`/home/ada/app/node_modules/backplane-agent-runtime/${file}`), "/home/ada/app");
    assert.equal(installFolder(`/usr/local/lib/node_modules/backplane-agent-runtime/${file}`), "/usr/local/lib");
    assert.equal(installFolder(`/home/ada/backplane-agent-runtime/${file}`), "/home/ada/backplane-agent-runtime");
  });

  test("--help documents the gateway, its flags and its subcommands", () => {
    const help = runCli(["--help"]).stdout;
    for (const flag of [
      "gateway --config",
      "gateway review",
      "gateway approve",
      "--http",
      "--token-file",
      "--pins-mode",
      "--call-timeout",
      "--max-message-bytes",
      "--restart",
      "--audit-values",
      "--allow-origin",
    ]) {
      assert.ok(help.includes(flag), flag);
    }
  });
});
