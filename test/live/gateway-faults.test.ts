/**
 * `backplane-schema gateway` live, faults (issue 34 §5): a server that crashes, hangs whole, writes garbage or a
 * message over `--max-message-bytes` is isolated (its pending call fails with a clear error, its tools become
 * unavailable) while the other server keeps working, and `--restart` brings a crashed server back; a server that cannot
 * start, a tool whose schema does not compile and one in an unsupported dialect take nothing else down; under
 * `--pins-mode enforce` an unpinned tool is held and the pins file is never written. (`--target`'s quarantine is
 * policy alone: test/cli/gateway/in-process.test.ts.)
 */

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { misbehaving, startGateway, textOf, type RunningGateway } from "./gateway-helpers.js";
import { until } from "../until.js";
import { runCli } from "../cli/helpers.js";

async function withGateway(
  servers: Record<string, unknown>,
  args: (dir: string) => string[],
  body: (gateway: RunningGateway) => Promise<void>,
): Promise<void> {
  const gateway = await startGateway({ servers, args });
  try {
    await body(gateway);
  } finally {
    await gateway.close();
  }
}

const names = async (gateway: RunningGateway) => (await gateway.client.listTools()).tools.map((t) => t.name);
const call = (gateway: RunningGateway, name: string, args: Record<string, unknown> = {}) =>
  gateway.client.callTool({ name, arguments: args });

describe("gateway: one server's faults stay its own", () => {
  test("a crash fails the pending call, leaves the other server working, and --restart brings it back", async () => {
    await withGateway(
      { alpha: misbehaving("alpha"), beta: misbehaving("beta") },
      () => ["--restart"],
      async (gateway) => {
        const changes = gateway.listChanged();
        const crashed = await call(gateway, "alpha__crash");
        assert.equal(crashed.isError, true);
        assert.equal(textOf(crashed), 'The tool "alpha__crash" is not available: its server stopped.');
        assert.equal(textOf(await call(gateway, "beta__echo", { message: "hi" })), "beta: hi");
        await gateway.waitFor(/alpha: stopped: it exited with code 3; its tools are unavailable: alpha__echo/);
        await until("the client to be told", () => gateway.listChanged() > changes);
        await gateway.waitFor(/\[alpha\] restarting in 500 ms \(--restart\)/);
        await gateway.waitFor(/alpha: started \(15 tools listed\)(?:.|\n)*alpha: started/);
        await until(
          "alpha's tools to be listed again",
          async () => (await names(gateway)).includes("alpha__echo") || undefined,
        );
        assert.equal(textOf(await call(gateway, "alpha__echo", { message: "back" })), "alpha: back");
      },
    );
  });

  test("a server that hangs whole is isolated after a call times out and a ping gets no answer", async () => {
    await withGateway(
      { alpha: misbehaving("alpha"), beta: misbehaving("beta") },
      () => ["--call-timeout", "800"],
      async (gateway) => {
        const frozen = await call(gateway, "alpha__freeze");
        assert.equal(textOf(frozen), 'The call to "alpha__freeze" timed out after 800 ms.');
        await gateway.waitFor(
          /alpha: stopped: it stopped answering \(a call timed out and a ping got no answer within 800 ms\)/,
        );
        const after = await call(gateway, "alpha__echo", { message: "x" });
        assert.equal(textOf(after), 'The tool "alpha__echo" is not available: its server is not running.');
        assert.equal(textOf(await call(gateway, "beta__echo", { message: "hi" })), "beta: hi");
      },
    );
  });

  test("garbage on stdout past --max-stdout-noise and a message over --max-message-bytes isolate the server", async () => {
    await withGateway(
      { alpha: misbehaving("alpha"), beta: misbehaving("beta"), gamma: misbehaving("gamma") },
      () => ["--max-message-bytes", "65536", "--max-stdout-noise", "5"],
      async (gateway) => {
        assert.equal(textOf(await call(gateway, "alpha__garbage", { lines: 5 })), "wrote 5 lines");
        await gateway.waitFor(/\[alpha\] it wrote a line that is not JSON on stdout: skipped \(1 so far/);
        const garbage = await call(gateway, "alpha__garbage");
        assert.match(
          textOf(garbage),
          /^(wrote 1 lines|The tool "alpha__garbage" is not available: its server stopped\.)$/,
        );
        await gateway.waitFor(/alpha: stopped: it wrote more than 5 lines on stdout that are not JSON-RPC messages/);
        assert.equal(textOf(await call(gateway, "beta__huge", { bytes: 1000 })).length, 1000);
        const huge = await call(gateway, "beta__huge", { bytes: 100_000 });
        assert.equal(textOf(huge), 'The tool "beta__huge" is not available: its server stopped.');
        await gateway.waitFor(/beta: stopped: it sent a message of more than 65536 bytes \(--max-message-bytes\)/);
        assert.equal(textOf(await call(gateway, "gamma__echo", { message: "still" })), "gamma: still");
        assert.deepEqual(
          (await names(gateway)).filter((n) => !n.startsWith("gamma__")),
          [],
        );
      },
    );
  });

  test("a server that cannot start and tools that cannot be admitted take nothing else down", async () => {
    const servers = {
      missing: { command: "/nonexistent/mcp-server" },
      alpha: misbehaving("alpha", "bad-tools"),
    };
    await withGateway(
      servers,
      () => [],
      async (gateway) => {
        const listed = await names(gateway);
        assert.ok(listed.includes("alpha__echo"));
        assert.ok(!listed.includes("alpha__bad_schema") && !listed.includes("alpha__old_dialect"));
        const stderr = gateway.stderr();
        assert.match(stderr, /missing: failed to start: it could not be started: no such command/);
        assert.match(stderr, /excluded alpha__bad_schema: validation\/schema_invalid/);
        assert.match(stderr, /quarantined alpha__old_dialect: unsupported_capability\/dialect_unsupported/);
        assert.match(stderr, /admitted 15 tools from 1 of 2 servers/);
        const quarantined = await call(gateway, "alpha__old_dialect");
        assert.equal(textOf(quarantined), 'The tool "alpha__old_dialect" is not available.');
      },
    );
  });

  test("--pins-mode enforce: an unpinned tool is held, the pins file is never written; review and approve", async () => {
    let pinsText = "";
    await withGateway(
      { alpha: misbehaving("alpha") },
      (dir) => {
        // Pins for every tool but echo, taken from a first run's trust on first use.
        const config = join(dir, "config.json");
        const tofu = runCli(["gateway", "review", "--config", config, "--pins", "tofu.json"], { cwd: dir });
        assert.equal(tofu.status, 0, tofu.stdout + tofu.stderr);
        assert.match(tofu.stdout, /^NEW {7}alpha__echo: no pin; pinned on first use by the gateway \(tofu\)$/m);
        assert.match(tofu.stdout, /^NEW {7}server:alpha: no pin; pinned on first use by the gateway \(tofu\)$/m);
        assert.doesNotMatch(tofu.stdout, /approve/, "nothing would be held: no approve hint");
        assert.ok(!existsSync(join(dir, "tofu.json.held")), "nothing recorded as held");
        const first = runCli(
          ["gateway", "review", "--config", config, "--pins", "first.json", "--pins-mode", "enforce"],
          { cwd: dir },
        );
        assert.equal(first.status, 4, first.stdout + first.stderr);
        assert.match(first.stdout, /first\.json does not exist \(--pins-mode enforce\)/);
        assert.match(first.stdout, /^NEW {7}alpha__echo: no pin; held \(--pins-mode enforce\)$/m);
        // Under enforce the server's identity is approved too, once (issue 46): without it its tools stay held.
        assert.match(first.stdout, /^NEW {7}server:alpha: no pin; held \(--pins-mode enforce\)$/m);
        const digestOf = (text: string, name: string) =>
          new RegExp(`approve --pins \\S+ (${name}@sha256-\\S+)`).exec(text)?.[1] ?? assert.fail(text);
        const approveAll = runCli(
          [
            "gateway",
            "approve",
            "--pins",
            "first.json",
            digestOf(first.stdout, "alpha__add"),
            digestOf(first.stdout, "alpha__args"),
            digestOf(first.stdout, "server:alpha"),
          ],
          { cwd: dir },
        );
        assert.equal(approveAll.status, 0, approveAll.stderr);
        pinsText = readFileSync(join(dir, "first.json"), "utf8");
        writeFileSync(join(dir, "pins.json"), pinsText);
        return ["--pins", join(dir, "pins.json"), "--pins-mode", "enforce"];
      },
      async (gateway) => {
        const listed = await names(gateway);
        assert.deepEqual(listed.sort(), ["alpha__add", "alpha__args"]);
        await gateway.waitFor(/held alpha__echo: tool_unpinned \(no pin\)/);
        assert.equal(readFileSync(join(gateway.dir, "pins.json"), "utf8"), pinsText, "never written");
        const review = runCli(
          ["gateway", "review", "--config", "config.json", "--pins", "pins.json", "--pins-mode", "enforce"],
          { cwd: gateway.dir },
        );
        assert.equal(review.status, 4);
        assert.match(review.stdout, /^NEW {7}alpha__echo: no pin; held \(--pins-mode enforce\)$/m);
        assert.ok(existsSync(join(gateway.dir, "pins.json.held")));
        const changes = gateway.listChanged();
        const echo = /approve --pins pins\.json (alpha__echo@sha256-\S+)/.exec(review.stdout)?.[1] ?? "";
        assert.equal(runCli(["gateway", "approve", "--pins", "pins.json", echo], { cwd: gateway.dir }).status, 0);
        await until("the approval to be picked up", () => gateway.listChanged() > changes);
        assert.ok((await names(gateway)).includes("alpha__echo"));
      },
    );
  });
});
