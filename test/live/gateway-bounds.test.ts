/**
 * Issue 44, the gateway's bounds, through the program with hostile servers (test/live/hostile-server.ts): a server
 * flooding a client that reads slowly, a re-listing of many large pages, a banner on stdout, an exit at start, the
 * requests waiting at the client, the capabilities offered. Each asserts what the gateway did and counted, never how
 * long it took. The template bounds and the `list_changed` storm are tested in-process
 * (test/cli/gateway/in-process.test.ts).
 */

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, misbehaving, startGateway, textOf } from "./gateway-helpers.js";
import { until } from "../until.js";
import { alive } from "./servers.js";

const HOSTILE = join(dirname(fileURLToPath(import.meta.url)), "hostile-server.js");

function hostile(name: string, mode: string, ...args: string[]) {
  return { command: process.execPath, args: [HOSTILE, name, mode, ...args] };
}

const TIMEOUT = { timeout: 120_000 };

describe("gateway bounds (issue 44)", () => {
  test(
    "observation 4: a re-listing past --max-listing-bytes is cut short and its server isolated",
    TIMEOUT,
    async () => {
      const gw = await startGateway({
        servers: { pages: hostile("pages", "pages", "1000", "200000"), ok: misbehaving("ok") },
        args: () => ["--max-listing-bytes", String(1024 * 1024)],
      });
      try {
        await gw.client.callTool({ name: "pages__grow", arguments: {} });
        await gw.waitFor(
          /pages: stopped: its tools\/list holds more than 1048576 bytes \(--max-listing-bytes\)/,
          60_000,
        );
        const pages = [...gw.stderr().matchAll(/\[pages\] page (\d+)/g)].map((m) => Number(m[1]));
        assert.ok(Math.max(...pages) <= 6, `${Math.max(...pages) + 1} pages were asked for`);
        const result = await gw.client.callTool({ name: "ok__echo", arguments: { message: "hi" } });
        assert.equal(textOf(result), "ok: hi");
      } finally {
        await gw.close();
      }
    },
  );

  test(
    "observation 3: a flood to a client that stops reading is bounded, dropped, reported, then isolated",
    TIMEOUT,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "backplane-gateway-"));
      const max = 256 * 1024;
      writeFileSync(
        join(dir, "config.json"),
        JSON.stringify({ mcpServers: { flood: hostile("flood", "flood", "65536") } }),
      );
      const child = spawn(
        process.execPath,
        [
          CLI,
          "gateway",
          "--config",
          join(dir, "config.json"),
          "--max-queued-bytes",
          String(max),
          "--max-dropped-notifications",
          "200",
        ],
        { env: getDefaultEnvironment(), stdio: ["pipe", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += String(chunk)));
      let stdout = "";
      const onData = (chunk: Buffer) => (stdout += String(chunk));
      child.stdout.on("data", onData);
      const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
      try {
        send({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "slow", version: "1" } },
        });
        await until("initialize answered", () => stdout.includes('"id":1'), 60_000);
        send({ jsonrpc: "2.0", method: "notifications/initialized" });
        send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
        send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "flood__flood", arguments: {} } });
        await until("the call answered", () => stdout.includes('"id":3'), 60_000);
        // The client stops reading.
        child.stdout.off("data", onData);
        child.stdout.pause();
        await until("the flood isolated", () => /flood: stopped: it flooded a slow client/.test(stderr), 90_000);
        const waiting = [...stderr.matchAll(/(\d+) bytes wait to be written, at most (\d+)/g)];
        assert.ok(waiting.length >= 2, stderr);
        for (const [, bytes, bound] of waiting) {
          assert.equal(Number(bound), max);
          assert.ok(Number(bytes) <= max, `${bytes} bytes queued`);
        }
        assert.match(stderr, /flood: 1 notification\(s\) dropped/);
        assert.match(stderr, /flood: 100 notification\(s\) dropped/);
        assert.doesNotMatch(stderr, /MaxListenersExceededWarning/);
      } finally {
        child.stdin.end();
        child.stdout.resume();
        await until("the gateway to exit", () => child.pid === undefined || !alive(child.pid), 30_000);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("gateway: what waits for a server that stops reading (--max-queued-bytes)", () => {
  test("calls past the bound are not sent but answered with a tool error, reported at once", TIMEOUT, async () => {
    const max = 64 * 1024;
    const gw = await startGateway({
      servers: { deaf: hostile("deaf", "deaf"), ok: misbehaving("ok") },
      args: () => ["--max-queued-bytes", String(max), "--call-timeout", "60000"],
    });
    try {
      assert.equal(textOf(await gw.client.callTool({ name: "deaf__deafen", arguments: {} })), "deaf");
      // 64 calls of 32 KiB each (2 MiB): the pipe takes about 64 KiB, the gateway's queue at most 4 × 64 KiB.
      const big = "x".repeat(32 * 1024);
      const notSent: string[] = [];
      const NOT_SENT = 'The tool "deaf__echo" is not available now: its server is not reading what it is sent.';
      for (let i = 0; i < 64; i++) {
        gw.client
          .callTool({ name: "deaf__echo", arguments: { pad: big } }, undefined, { timeout: 120_000 })
          .then((r) => textOf(r) === NOT_SENT && notSent.push(NOT_SENT))
          .catch(() => undefined);
      }
      await until("most calls answered as not sent", () => notSent.length >= 40, 60_000);
      assert.match(
        gw.stderr(),
        /1 tool call\(s\) not sent: the peer reads too slowly: \d+ bytes wait to be written, at most 65536 \(--max-queued-bytes\)/,
      );
      for (const [, bytes] of gw.stderr().matchAll(/(\d+) bytes wait to be written, at most 65536/g))
        assert.ok(Number(bytes) <= 4 * max, `${bytes} bytes queued for the server`);
      assert.equal(textOf(await gw.client.callTool({ name: "ok__echo", arguments: { message: "hi" } })), "ok: hi");
    } finally {
      await gw.close();
    }
  });
});

describe("gateway start-up (issue 44, observations 16 and 18)", () => {
  test("a banner on stdout is skipped and reported; the server works", TIMEOUT, async () => {
    const gw = await startGateway({ servers: { banner: misbehaving("banner", "banner") } });
    try {
      await gw.waitFor(/\[banner\] it wrote a line that is not JSON on stdout: skipped \(1 so far/, 60_000);
      const result = await gw.client.callTool({ name: "banner__echo", arguments: { message: "hi" } });
      assert.equal(textOf(result), "banner: hi");
    } finally {
      await gw.close();
    }
  });

  test(
    "a server exiting at start is reported with its exit code and last stderr lines; its tools are told so",
    TIMEOUT,
    async () => {
      const gw = await startGateway({ servers: { broken: misbehaving("broken", "exit3"), ok: misbehaving("ok") } });
      try {
        await gw.waitFor(
          /broken: failed to start: it exited with code 3 before it started; its last stderr lines: loading settings \| Error: the API key is missing/,
          60_000,
        );
        const result = await gw.client.callTool({ name: "broken__echo", arguments: { message: "hi" } });
        assert.equal(textOf(result), 'The tool "broken__echo" is not available: its server did not start.');
      } finally {
        await gw.close();
      }
    },
  );
});

describe("gateway: a server's requests to the client (issue 44, observation 3)", () => {
  test("at most 16 wait per server, each at most --client-request-timeout", TIMEOUT, async () => {
    const gw = await startGateway({
      servers: { alpha: misbehaving("alpha") },
      args: () => ["--client-request-timeout", "15000"],
    });
    try {
      // The client never answers "wait": every call's sampling request waits at the client.
      const calls = [...Array(17).keys()].map(() =>
        gw.client.callTool({ name: "alpha__sample", arguments: { prompt: "wait" } }, undefined, { timeout: 100_000 }),
      );
      await gw.waitFor(/alpha: a sampling\/createMessage request was refused: 16 already wait/, 60_000);
      const texts = (await Promise.all(calls)).map(textOf);
      const refused = texts.filter((t) => /too many requests wait at the client \(16\)/.test(t));
      const timedOut = texts.filter((t) => /^sampling failed: .*Request timed out/.test(t));
      assert.equal(refused.length, 1, texts.join("\n"));
      assert.equal(timedOut.length, 16, texts.join("\n"));
    } finally {
      await gw.close();
    }
  });
});

describe("gateway: capabilities offered upstream (issue 44, observation 21)", () => {
  test("a client without sampling, roots or elicitation: the servers are not offered them", TIMEOUT, async () => {
    const dir = mkdtempSync(join(tmpdir(), "backplane-gateway-"));
    writeFileSync(join(dir, "config.json"), JSON.stringify({ mcpServers: { alpha: misbehaving("alpha") } }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "gateway", "--config", join(dir, "config.json")],
      env: getDefaultEnvironment(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += String(chunk)));
    const client = new Client({ name: "plain", version: "1.0.0" }, { capabilities: {} });
    try {
      await client.connect(transport);
      const offered = await client.callTool({ name: "alpha__capabilities", arguments: {} }, undefined, {
        timeout: 60_000,
      });
      assert.equal(textOf(offered), "{}");
      assert.match(stderr, /the client does not declare sampling, roots, elicitation: the servers are not offered it/);
    } finally {
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a client with them: the servers are offered what it declared", TIMEOUT, async () => {
    const gw = await startGateway({ servers: { alpha: misbehaving("alpha") } });
    try {
      const offered = await gw.client.callTool({ name: "alpha__capabilities", arguments: {} });
      assert.deepEqual(JSON.parse(textOf(offered)), {
        sampling: {},
        roots: { listChanged: true },
        elicitation: { form: {} },
      });
    } finally {
      await gw.close();
    }
  });
});
