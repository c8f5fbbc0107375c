/**
 * The gateway's identities (issue 46): a tool's listed canonical text (`_meta` included) over the 400 real tools of
 * the corpus, where `_meta` differs, a server's identity (names, never values), shadowed names, and which upstream
 * URLs are plain HTTP off loopback.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ToolCatalog } from "../../../src/index.js";
import { checkUpstreamTransport, serversOf } from "../../../src/cli/gateway/config.js";
import { shadowedNames } from "../../../src/cli/gateway/policy/shadowing.js";
import {
  canonicalJson,
  listedCanonical,
  metaChanges,
  pins,
  textDigest,
} from "../../../src/cli/gateway/policy/listed-identity.js";
import { identityChanges, identityText } from "../../../src/cli/gateway/policy/server-identity.js";
import { descriptorOf, readCorpus } from "../../runtime/identity/helpers.js";

describe("a tool's listed canonical text", () => {
  test("the 400 corpus tools: the library's text for those without _meta, with _meta added for the others", async () => {
    let withMeta = 0;
    const corpus = readCorpus();
    assert.equal(corpus.length, 400);
    for (const record of corpus) {
      const tool = descriptorOf(record);
      const library = ToolCatalog.canonical(tool);
      // The gateway writes RFC 8785 exactly as the library does.
      assert.equal(canonicalJson(JSON.parse(library)), library, record.id);
      const listed = listedCanonical(tool);
      if (!Object.hasOwn(tool, "_meta")) {
        assert.equal(listed, library, record.id);
        assert.equal(textDigest(listed), await ToolCatalog.digest(tool), "the same digest as the library's");
        continue;
      }
      withMeta++;
      const { _meta, ...rest } = JSON.parse(listed) as Record<string, unknown>;
      assert.deepEqual(_meta, tool["_meta"], record.id);
      assert.equal(canonicalJson(rest), library, record.id);
      // A pin written before _meta was pinned holds this tool once, at /_meta.
      assert.equal(pins(library, listed), false);
      assert.deepEqual(metaChanges(library, listed), ["/_meta"]);
    }
    assert.ok(withMeta > 0 && withMeta < 20, `${withMeta} corpus tools carry _meta`);
  });

  test("a pin holds the same JSON data written otherwise, and its digest; nothing else", () => {
    const tool = { name: "t", inputSchema: { type: "object" }, _meta: { b: 1, a: [true, null] }, backend: "s" };
    const listed = listedCanonical(tool);
    assert.equal(pins(JSON.stringify(JSON.parse(listed), null, 2), listed), true);
    assert.equal(pins(textDigest(listed), listed), true);
    assert.equal(pins(textDigest(ToolCatalog.canonical(tool)), listed), false);
    assert.equal(pins("{not json", listed), false);
  });

  test("where two _meta differ: the deepest pointers, escaped, arrays item by item when their lengths agree", () => {
    const at = (before: unknown, after: unknown) =>
      metaChanges(
        listedCanonical({ name: "t", inputSchema: { type: "object" }, _meta: before }),
        listedCanonical({ name: "t", inputSchema: { type: "object" }, _meta: after }),
      );
    assert.deepEqual(at({ ui: { resourceUri: "ui://a" } }, { ui: { resourceUri: "ui://b" } }), [
      "/_meta/ui/resourceUri",
    ]);
    assert.deepEqual(at({ "a/b~c": 1, k: [1, 2] }, { "a/b~c": 2, k: [1, 3] }), ["/_meta/a~1b~0c", "/_meta/k/1"]);
    assert.deepEqual(at({ k: [1, 2] }, { k: [1] }), ["/_meta/k"]);
    assert.deepEqual(at(JSON.parse('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"x": 2}}')), [
      "/_meta/__proto__/x",
    ]);
    assert.deepEqual(at({ same: [1, { a: null }] }, { same: [1, { a: null }] }), []);
    assert.deepEqual(metaChanges(textDigest("{}"), "{}"), [], "a digest says nothing of where");
  });
});

describe("a server's identity", () => {
  const says = { name: "memory", version: "1.0.0", protocolVersion: "2025-11-25" };
  test("what the configuration launches: names of environment variables, headers and query, never their values", () => {
    const [stdio, http] = serversOf(
      {
        mcpServers: {
          m: { command: "node", args: ["server.js"], env: { API_TOKEN: "s3cret", HOME_DIR: "/h" } },
          r: {
            url: "https://user:pw@mcp.example/mcp?key=s3cret&key=2&v=1",
            headers: { Authorization: "Bearer s3cret" },
          },
        },
      },
      "gw.json",
    );
    const one = identityText(stdio!, says);
    assert.doesNotMatch(one, /s3cret|\/h"/);
    assert.deepEqual(JSON.parse(one), {
      launch: { transport: "stdio", command: "node", args: ["server.js"], env: ["API_TOKEN", "HOME_DIR"] },
      says,
    });
    const two = identityText(http!, says);
    assert.doesNotMatch(two, /s3cret|user|pw/);
    assert.deepEqual(JSON.parse(two).launch, {
      transport: "http",
      url: "https://mcp.example/mcp",
      query: ["key", "v"],
      headers: ["authorization"],
    });
  });

  test("a version move alone never holds; any other difference does, with its pointers", () => {
    const [stdio] = serversOf({ mcpServers: { m: { command: "node" } } }, "gw.json");
    const pinned = identityText(stdio!, says);
    assert.deepEqual(identityChanges(pinned, identityText(stdio!, { ...says, version: "1.1.0" })), {
      fields: ["/says/version"],
      versionOnly: true,
    });
    assert.deepEqual(identityChanges(pinned, identityText(stdio!, { ...says, name: "x", version: "2" })), {
      fields: ["/says/name", "/says/version"],
      versionOnly: false,
    });
    assert.deepEqual(identityChanges(pinned, pinned), { fields: [], versionOnly: false });
  });
});

describe("shadowed names", () => {
  test("a bare name two servers list, with both; none for distinct names or one server listing a name twice", () => {
    assert.deepEqual(
      shadowedNames([
        { server: "a", names: ["search", "__proto__", "x", "x"] },
        { server: "b", names: ["search", "__proto__", "y"] },
        { server: "c", names: ["z"] },
      ]),
      [
        { name: "search", servers: ["a", "b"] },
        { name: "__proto__", servers: ["a", "b"] },
      ],
    );
    assert.deepEqual(
      shadowedNames([
        { server: "a", names: ["x"] },
        { server: "b", names: ["y"] },
      ]),
      [],
    );
  });
});

describe("plain HTTP upstreams", () => {
  const check = (url: string, allowed: string[] = []) =>
    checkUpstreamTransport(serversOf({ mcpServers: { s: { url } } }, "gw.json"), allowed, "gw.json");
  test("loopback and https pass; any other plain http host is refused unless allowed by name", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://127.8.9.10:9/",
      "http://localhost:1/",
      "http://[::1]/",
      "https://a.example/",
    ])
      assert.doesNotThrow(() => check(url), url);
    for (const url of [
      "http://a.example/",
      "http://10.0.0.1/",
      "http://[::2]/",
      "http://localhost.evil.example/",
      "http://0x7f000001.example/",
    ])
      assert.throws(() => check(url), /is plain http:\/\/ to .*--allow-insecure-upstream s$/, url);
    assert.doesNotThrow(() => check("http://a.example/", ["s"]));
    assert.throws(() => check("https://a.example/", ["s"]), /names no plain http:\/\/ server s/);
  });
});
