/**
 * What an exact gateway sees of who it talks to (issue 46, items 3–6), live through the program: a tool's `_meta`
 * carried to the client as published and pinned (a changed `_meta` held at its pointer, reviewed, approved; a pins
 * file written before `_meta` was pinned holds the tools that have one, once), each server's identity pinned (an
 * impersonating name, a downgraded protocol or a changed launch held with its tools until `approve server:<name>@…`;
 * a restart and a version bump never held), shadowed names reported, and plain-HTTP and foreign transports refused at
 * start. The hostile servers are `identity-server.js` scripts; each hostile case has a benign twin that passes.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { ToolCatalog } from "../../src/index.js";
import { runCli } from "../cli/helpers.js";
import { reference, startGateway, textOf, type RunningGateway } from "./gateway-helpers.js";
import { until } from "../until.js";
import { SERVERS } from "./servers.js";
import type { IdentityScript } from "./identity-server.js";

const SERVER = join(dirname(fileURLToPath(import.meta.url)), "identity-server.js");

let scripts = "";
before(() => {
  scripts = mkdtempSync(join(tmpdir(), "backplane-gateway-identity-"));
});
after(() => rmSync(scripts, { recursive: true, force: true }));

/** A server named `name` saying and listing what `script` holds (rewritten by `write`), launched with `extra`. */
function server(name: string, script: IdentityScript, extra: string[] = []) {
  const file = join(scripts, `${name}-${Math.random().toString(36).slice(2)}.json`);
  const write = (s: IdentityScript) => writeFileSync(file, JSON.stringify(s));
  write(script);
  return { entry: { command: process.execPath, args: [SERVER, "serve", name, file, ...extra] }, write };
}

const META = { ui: { resourceUri: "ui://p/app.html" }, "com.example/order": [1, { a: null, b: "é" }] };
const app = (meta: Record<string, unknown> = META) => ({
  name: "app",
  description: "Opens the app.",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  _meta: meta,
});
const plain = { name: "plain", description: "No _meta.", inputSchema: { type: "object" } };

/** The pins file as an object. */
const pinsOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
/** `sha256-` and the base64url SHA-256 of a text: the digest of a canonical text, computed here independently. */
const sha = (text: string) => "sha256-" + createHash("sha256").update(text, "utf8").digest("base64url");

/** Waits (bounded) until an asynchronous check holds. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function names(gateway: RunningGateway): Promise<string[]> {
  return (await gateway.client.listTools()).tools.map((t) => t.name).sort();
}

/** `gateway review` and `gateway approve` beside a running gateway, with its files. */
function review(gateway: RunningGateway, pins: string) {
  return runCli(["gateway", "review", "--config", join(gateway.dir, "config.json"), "--pins", pins]);
}
function approve(pins: string, what: string) {
  return runCli(["gateway", "approve", "--pins", pins, what]);
}
/** The digest review printed for `name`, checked against the held file's canonical text. */
function digestShown(stdout: string, name: string, pins: string): string {
  const held = JSON.parse(readFileSync(`${pins}.held`, "utf8")) as Record<string, { canonical: string }>;
  const digest = sha((held[name] as { canonical: string }).canonical);
  assert.match(stdout, new RegExp(`approve --pins \\S+ ${name.replace(/[.:]/g, "\\$&")}@${digest}$`, "m"));
  return digest;
}

describe("gateway: _meta carried to the client and pinned", { timeout: 180_000 }, () => {
  test("_meta reaches the client as published; a changed _meta is held at its pointer, reviewed, approved", async () => {
    const pins = join(scripts, `pins-${Math.random().toString(36).slice(2)}.json`);
    const p = server("p", { tools: [app(), plain] });
    const gateway = await startGateway({ servers: { p: p.entry }, args: () => ["--pins", pins] });
    try {
      const { tools } = await gateway.client.listTools();
      const listed = tools.find((t) => t.name === "p__app");
      assert.deepEqual({ ...listed, name: "app" }, app(), "every field, _meta included, as published");
      await until("the pins file", () => existsSync(pins));
      const pinned = pinsOf(pins);
      assert.deepEqual(JSON.parse(pinned["p__app"] as string)._meta, META, "the pin covers _meta");
      // A tool without _meta keeps the library's canonical text as its pin: pins written before are still good.
      assert.equal(pinned["p__plain"], ToolCatalog.canonical({ ...plain, name: "p__plain", backend: "p" }));

      // The rug pull: the UI resource now points elsewhere; nothing a model reads changed.
      p.write({ tools: [app({ ...META, ui: { resourceUri: "ui://evil/app.html" } }), plain] });
      await gateway.client.callTool({ name: "p__notify", arguments: {} });
      await gateway.waitFor(/held p__app: tool_changed at \/_meta\/ui\/resourceUri; review it with/, 30_000);
      assert.deepEqual(await names(gateway), ["p__notify", "p__plain"], "the held tool is not listed");
      const refused = await gateway.client.callTool({ name: "p__app", arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /not available/);
      assert.doesNotMatch(gateway.stderr(), /call app/, "the held tool's call never reached the server");

      const shown = review(gateway, pins);
      assert.equal(shown.status, 4, shown.stdout + shown.stderr);
      assert.match(shown.stdout, /HELD {6}p__app: its definition differs from its pin at \/_meta\/ui\/resourceUri/);
      assert.match(shown.stdout, /pinned: "ui:\/\/p\/app\.html"\n {4}now: {4}"ui:\/\/evil\/app\.html"/);
      const digest = digestShown(shown.stdout, "p__app", pins);
      const approved = approve(pins, `p__app@${digest}`);
      assert.equal(approved.status, 0, approved.stdout + approved.stderr);
      await eventually("the approval to be picked up", async () => (await names(gateway)).includes("p__app"));
      const now = (await gateway.client.listTools()).tools.find((t) => t.name === "p__app");
      assert.deepEqual(now?._meta, { ...META, ui: { resourceUri: "ui://evil/app.html" } });
    } finally {
      await gateway.close();
    }
  });

  test("a pins file written before _meta was pinned: the tools with _meta are held once, the others admitted", async () => {
    const pins = join(scripts, `old-pins-${Math.random().toString(36).slice(2)}.json`);
    const notify = { name: "notify", description: "Sends tools/list_changed.", inputSchema: { type: "object" } };
    // What the previous release wrote: the library's canonical text, which leaves _meta out.
    const old = (tool: Record<string, unknown>) =>
      ToolCatalog.canonical({ ...tool, name: `p__${tool.name}`, backend: "p" });
    writeFileSync(pins, JSON.stringify({ p__app: old(app()), p__plain: old(plain), p__notify: old(notify) }));
    const p = server("p", { tools: [app(), plain] });
    const gateway = await startGateway({ servers: { p: p.entry }, args: () => ["--pins", pins] });
    try {
      await gateway.waitFor(/held p__app: tool_changed at \/_meta;/, 30_000);
      assert.deepEqual(await names(gateway), ["p__notify", "p__plain"]);
      assert.doesNotMatch(gateway.stderr(), /held (p__plain|p__notify|server:p)/);
      const shown = review(gateway, pins);
      assert.equal(shown.status, 4, shown.stdout + shown.stderr);
      assert.match(shown.stdout, /\/_meta\n {4}pinned: \(absent\)\n {4}now: {4}\{"com\.example\/order"/);
      const approved = approve(pins, `p__app@${digestShown(shown.stdout, "p__app", pins)}`);
      assert.equal(approved.status, 0, approved.stdout + approved.stderr);
      await eventually("the approval to be picked up", async () => (await names(gateway)).includes("p__app"));
    } finally {
      await gateway.close();
    }
  });
});

describe("gateway: each server's identity is pinned", { timeout: 240_000 }, () => {
  /** Starts the gateway in front of one server `p` on `pins`, waits for its first catalog, and returns it. */
  async function gatewayOn(entry: Record<string, unknown>, pins: string) {
    const audit = `${pins}.audit.jsonl`;
    const gateway = await startGateway({ servers: { p: entry }, args: () => ["--pins", pins, "--audit", audit] });
    await gateway.waitFor(/admitted \d+ tools from 1 of 1 servers/);
    return gateway;
  }

  test("the same server restarted, or its version bumped: never held; the version move is reported", async () => {
    const pins = join(scripts, `restart-${Math.random().toString(36).slice(2)}.json`);
    const p = server("p", { tools: [app(), plain] });
    let gateway = await gatewayOn(p.entry, pins);
    await until("the pins file", () => existsSync(pins) && pinsOf(pins)["server:p"] !== undefined);
    const identity = JSON.parse(pinsOf(pins)["server:p"] as string) as Record<string, Record<string, unknown>>;
    assert.deepEqual(identity["says"], { name: "p", version: "1.0.0", protocolVersion: "2025-11-25" });
    assert.deepEqual(identity["launch"]?.["args"], p.entry.args);
    await gateway.close();
    for (let i = 0; i < 2; i++) {
      gateway = await gatewayOn(p.entry, pins);
      assert.deepEqual(await names(gateway), ["p__app", "p__notify", "p__plain"]);
      assert.doesNotMatch(gateway.stderr(), /held /, "a restart holds nothing");
      await gateway.close();
    }
    p.write({ tools: [app(), plain], serverInfo: { name: "p", version: "1.1.0" } });
    gateway = await gatewayOn(p.entry, pins);
    try {
      await gateway.waitFor(/p: serverInfo\.version "1\.0\.0" is now "1\.1\.0" \(reported, not held/);
      assert.deepEqual(await names(gateway), ["p__app", "p__notify", "p__plain"]);
      assert.doesNotMatch(gateway.stderr(), /held /);
      await until("the version to be recorded", () => pinsOf(pins)["server:p"]?.includes('"1.1.0"'));
      const shown = review(gateway, pins);
      assert.equal(shown.status, 0, shown.stdout + shown.stderr);
      assert.match(shown.stdout, /0 server\(s\) held/);
    } finally {
      await gateway.close();
    }
  });

  const hostile: { what: string; change: (p: ReturnType<typeof server>) => Record<string, unknown>; at: string }[] = [
    {
      what: "another serverInfo.name (impersonation)",
      change: (p) => (p.write({ tools: [plain], serverInfo: { name: "filesystem", version: "1.0.0" } }), p.entry),
      at: "/says/name",
    },
    {
      what: "an older protocol version (downgrade)",
      change: (p) => (p.write({ tools: [plain], protocolVersion: "2024-11-05" }), p.entry),
      at: "/says/protocolVersion",
    },
    {
      what: "a configuration that launches it otherwise",
      change: (p) => ({ ...p.entry, args: [...(p.entry.args as string[]), "--other"] }),
      at: "/launch/args",
    },
    {
      what: "an environment variable added to its launch (its name pinned, never its value)",
      change: (p) => ({ ...p.entry, env: { EXTRA_TOKEN: "s3cret-value" } }),
      at: "/launch/env",
    },
  ];
  for (const { what, change, at } of hostile) {
    test(`${what}: the server is held with its tools until approve server:p@<digest>`, async () => {
      const pins = join(scripts, `held-${Math.random().toString(36).slice(2)}.json`);
      const p = server("p", { tools: [plain] });
      const first = await gatewayOn(p.entry, pins);
      await until("the server's pin", () => existsSync(pins) && pinsOf(pins)["server:p"] !== undefined);
      await first.close();
      const gateway = await gatewayOn(change(p), pins);
      try {
        const pointer = at.replace(/\//g, "\\/");
        await gateway.waitFor(new RegExp(`held server:p: server_changed at ${pointer}; its 2 tools are held with it`));
        assert.deepEqual(await names(gateway), [], "its tools are not listed");
        const refused = await gateway.client.callTool({ name: "p__plain", arguments: {} });
        assert.equal(refused.isError, true);
        assert.doesNotMatch(gateway.stderr(), /call plain/, "its calls never reach it");
        assert.doesNotMatch(readFileSync(pins, "utf8"), /s3cret-value/, "no environment value is written");
        const events = readFileSync(`${pins}.audit.jsonl`, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        const held = events.find((e) => e["event"] === "catalog" && e["outcome"] === "held");
        assert.deepEqual(
          { server: held?.["server"], tool: held?.["tool"], code: held?.["code"], fields: held?.["fields"] },
          { server: "p", tool: undefined, code: "server_changed", fields: [at] },
          "the audit log records the server held, with the pointer",
        );

        const shown = review(gateway, pins);
        assert.equal(shown.status, 4, shown.stdout + shown.stderr);
        assert.match(
          shown.stdout,
          new RegExp(
            `HELD {6}server:p: its identity \\(its tools are held with it\\) differs from its pin at ${pointer}`,
          ),
        );
        assert.match(shown.stdout, new RegExp(`  ${pointer}\\n {4}pinned: .*\\n {4}now: `));
        assert.doesNotMatch(shown.stdout, /HELD {6}p__/, "its tools are not offered for approval: they did not change");
        const approved = approve(pins, `server:p@${digestShown(shown.stdout, "server:p", pins)}`);
        assert.equal(approved.status, 0, approved.stdout + approved.stderr);
        await eventually("the approval to be picked up", async () => (await names(gateway)).length === 2);
        await gateway.waitFor(/approved server:p/);
        const called = await gateway.client.callTool({ name: "p__plain", arguments: {} });
        assert.equal(textOf(called), "p: plain");
      } finally {
        await gateway.close();
      }
    });
  }
});

describe("gateway: the reference servers with every identity check on", { timeout: 180_000 }, () => {
  test("restarted twice on one pins file: 0 identity holds, 0 held tools, 0 shadowing reports; review holds nothing", async () => {
    const root = mkdtempSync(join(tmpdir(), "backplane-gateway-reference-"));
    const pins = join(root, "pins.json");
    const servers = Object.fromEntries(
      SERVERS.map((s) => [s.backend, reference(s.pkg, root, s.args(root), s.env?.(root) ?? {})]),
    );
    let total = 0;
    try {
      for (let run = 0; run < 3; run++) {
        const gateway = await startGateway({ servers, args: () => ["--pins", pins] });
        try {
          const admitted = await gateway.waitFor(/admitted \d+ tools from \d+ of 4 servers/, 30_000);
          if (run === 0) total = Number(/\d+/.exec(admitted)?.[0]);
          assert.equal(admitted, `admitted ${total} tools from 4 of 4 servers`, gateway.stderr());
          await until("every server's identity pin", () =>
            SERVERS.every((s) => existsSync(pins) && pinsOf(pins)[`server:${s.backend}`] !== undefined),
          );
          assert.equal((await names(gateway)).length, total);
          assert.doesNotMatch(gateway.stderr(), /held |shadowed|serverInfo\.version/, `run ${run}`);
          if (run === 2) {
            const shown = review(gateway, pins);
            assert.equal(shown.status, 0, shown.stdout + shown.stderr);
            // (Review's own servers are offered every capability, so everything may list a tool more: new, not held.)
            assert.match(
              shown.stdout,
              / 0 changed, \d+ new, 0 left out, 0 server\(s\) held, 0 server\(s\) not started/,
            );
            assert.doesNotMatch(shown.stdout, /HELD|SHADOWED|VERSION/);
          }
        } finally {
          await gateway.close();
        }
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("gateway: shadowed names", { timeout: 120_000 }, () => {
  test("two servers listing one bare tool and prompt name: said at start-up and by review, naming both", async () => {
    const a = server("a", { notify: false, tools: [plain], prompts: [{ name: "greet" }] });
    const b = server("b", { notify: false, tools: [plain], prompts: [{ name: "greet" }] });
    const gateway = await startGateway({ servers: { a: a.entry, b: b.entry } });
    try {
      await gateway.waitFor(/shadowed tool name "plain": listed by 2 servers, a \(as a__plain\), b \(as b__plain\)/);
      await gateway.waitFor(/shadowed prompt name "greet": listed by 2 servers, a \(as a__greet\), b \(as b__greet\)/);
      assert.deepEqual(await names(gateway), ["a__plain", "b__plain"], "namespacing keeps both");
      const pins = join(gateway.dir, "pins.json");
      const shown = review(gateway, pins);
      assert.match(
        shown.stdout,
        /SHADOWED {2}tool name "plain": listed by 2 servers, a \(as a__plain\), b \(as b__plain\)/,
      );
      assert.match(shown.stdout, /SHADOWED {2}prompt name "greet": listed by 2 servers/);
    } finally {
      await gateway.close();
    }
  });

  test("the benign twin: servers with distinct names report no shadowing", async () => {
    const a = server("a", { notify: false, tools: [plain], prompts: [{ name: "greet" }] });
    const b = server("b", { notify: false, tools: [app()], prompts: [{ name: "hello" }] });
    const gateway = await startGateway({ servers: { a: a.entry, b: b.entry } });
    try {
      await gateway.waitFor(/admitted 2 tools from 2 of 2 servers/);
      assert.deepEqual((await gateway.client.listPrompts()).prompts.map((p) => p.name).sort(), [
        "a__greet",
        "b__hello",
      ]);
      const shown = review(gateway, join(gateway.dir, "pins.json"));
      assert.equal(shown.status, 0, shown.stdout + shown.stderr);
      assert.doesNotMatch(gateway.stderr() + shown.stdout, /shadowed|SHADOWED/i);
    } finally {
      await gateway.close();
    }
  });
});

describe("gateway: transport hygiene at start-up", { timeout: 120_000 }, () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "backplane-gateway-transport-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (servers: Record<string, unknown>, ...args: string[]) => {
    const config = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(config, JSON.stringify({ mcpServers: servers }));
    return runCli([
      "gateway",
      "review",
      "--config",
      config,
      "--pins",
      join(dir, "pins.json"),
      "--startup-timeout",
      "2000",
      ...args,
    ]);
  };
  /** One line on stderr, exit 2. */
  const refused = (r: ReturnType<typeof run>, pattern: RegExp) => {
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, pattern);
  };

  test("plain http:// off loopback is refused, in one line, unless --allow-insecure-upstream names it", async () => {
    const remote = { remote: { url: "http://192.0.2.1:9/mcp?key=v" } };
    refused(
      run(remote),
      /mcpServers\.remote\.url is plain http:\/\/ to 192\.0\.2\.1:9, which is not loopback: .*--allow-insecure-upstream remote/,
    );
    const cli = runCli(["gateway", "--config", join(dir, "none.json")]);
    assert.equal(cli.status, 2);
    const allowed = run(remote, "--allow-insecure-upstream", "remote");
    assert.equal(allowed.status, 1, "allowed: the gateway tries it (and it does not start)");
    assert.match(allowed.stdout, /NOT STARTED remote:/);
    refused(
      run(remote, "--allow-insecure-upstream", "ghost"),
      /--allow-insecure-upstream ghost: .* names no plain http:\/\/ server ghost/,
    );
  });

  test("the benign twin: loopback http:// and any https:// pass the check", async () => {
    for (const url of [
      "http://127.0.0.1:9/mcp",
      "http://localhost:9/mcp",
      "http://[::1]:9/mcp",
      "https://127.0.0.1:9/mcp",
    ]) {
      const r = run({ local: { url } });
      assert.equal(r.status, 1, `${url}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /NOT STARTED local:/);
    }
  });

  test("a transport the gateway does not speak is said in one line", async () => {
    refused(
      run({ w: { url: "ws://127.0.0.1:9/mcp" } }),
      /mcpServers\.w: url "ws:\/\/…" is a WebSocket transport, which the gateway does not speak; it speaks stdio/,
    );
    refused(run({ w: { url: "wss://example.com/mcp" } }), /url "wss:\/\/…" is a WebSocket transport/);
    refused(
      run({ s: { type: "sse", url: "http://127.0.0.1:9/sse" } }),
      /type "sse" is the legacy HTTP\+SSE transport \(MCP 2024-11-05\) the gateway does not speak/,
    );
    refused(
      run({ s: { type: "websocket", command: "x" } }),
      /type "websocket" is a transport the gateway does not speak/,
    );
  });
});
