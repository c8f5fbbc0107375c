/** The gateway's configuration file: the clients' mcpServers object, fail closed on anything else. */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serversOf } from "../../../src/cli/gateway/config.js";

const refused = (config: unknown, message: RegExp) => assert.throws(() => serversOf(config, "gw.json"), message);

describe("gateway config", () => {
  test("stdio and Streamable HTTP servers, in file order, with the fields clients write", () => {
    const servers = serversOf(
      {
        mcpServers: {
          memory: {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-memory"],
            env: { MEMORY_FILE_PATH: "/m" },
          },
          "remote.api": { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer x" } },
          local_fs: { type: "stdio", command: "node", cwd: "/srv" },
        },
      },
      "gw.json",
    );
    assert.deepEqual(
      servers.map((s) => [s.name, s.kind]),
      [
        ["memory", "stdio"],
        ["remote.api", "http"],
        ["local_fs", "stdio"],
      ],
    );
    assert.deepEqual(servers[0], {
      name: "memory",
      kind: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
      env: { MEMORY_FILE_PATH: "/m" },
    });
    assert.equal(servers[1]?.kind === "http" && servers[1].url.href, "https://mcp.example/mcp");
    assert.deepEqual(servers[2], { name: "local_fs", kind: "stdio", command: "node", args: [], env: {}, cwd: "/srv" });
  });

  test("unknown fields are errors naming them and the known ones", () => {
    refused(
      { mcpServers: { a: { command: "x", disabled: true } } },
      /mcpServers\.a: unknown field "disabled" \(known: type, command, args, env, cwd\)/,
    );
    refused(
      { mcpServers: { a: { url: "http://h/mcp", header: {} } } },
      /unknown field "header" \(known: type, url, headers\)/,
    );
    refused({ mcpServers: {}, globalShortcut: "x" }, /gw\.json: unknown field "globalShortcut" \(known: mcpServers\)/);
  });

  test("malformed servers are refused with what is wrong", () => {
    refused([], /must be a JSON object/);
    refused({}, /"mcpServers" must be an object/);
    refused({ mcpServers: {} }, /names no server/);
    refused({ mcpServers: { a: { command: "x", url: "http://h" } } }, /exactly one of "command" \(stdio\) or "url"/);
    refused({ mcpServers: { a: {} } }, /exactly one of/);
    refused({ mcpServers: { a: { command: "" } } }, /command must be a non-empty string/);
    refused({ mcpServers: { a: { command: "x", args: "-y" } } }, /args must be an array of strings/);
    refused({ mcpServers: { a: { command: "x", env: { N: 1 } } } }, /env must be an object of strings/);
    refused({ mcpServers: { a: { command: "x", type: "http" } } }, /type must be "stdio" for a server with command/);
    refused({ mcpServers: { a: { url: "ftp://h/x" } } }, /url must be an http: or https: URL/);
    refused({ mcpServers: { a: { url: "not a url" } } }, /url is not a URL/);
  });

  test("a server name is its tools' namespace: MCP tool-name characters, no __, at most 64", () => {
    for (const name of ["my server", "a__b", "", "x".repeat(65), "ümlaut", "a/b"]) {
      refused({ mcpServers: { [name]: { command: "x" } } }, /server name .* must be 1–64 characters/);
    }
    assert.equal(serversOf({ mcpServers: { "a_b-c.d": { command: "x" } } }, "gw.json")[0]?.name, "a_b-c.d");
  });

  test("__proto__ is an ordinary server name, refused like any other bad one", () => {
    refused(JSON.parse('{"mcpServers":{"__proto__":{"command":"x"}}}'), /server name "__proto__"/);
  });
});
