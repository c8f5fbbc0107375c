/**
 * Tools whose `outputSchema` declares an older dialect, with both SDK versions' real clients over their in-memory
 * transports (issue 33): SDK 2.x validates 2019-09 and draft-06 schemas with its own providers, and this package's
 * provider, through its default `legacyDialects: "upgrade"`, gives the same verdicts — and refuses, with the reason,
 * only what cannot be translated exactly. SDK 1.x's default provider (ajv's draft-07 class, schemas unchecked) reads
 * every schema as draft-07: where that is wrong, ours still gives the dialect's verdict.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client as Client2, type jsonSchemaValidator as Provider2 } from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import { InMemoryTransport as Transport2, Server as Server2 } from "@modelcontextprotocol/server";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as Transport1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as Server1 } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator as Provider1 } from "@modelcontextprotocol/sdk/validation/index.js";
import { BackplaneJsonSchemaValidator } from "../../src/adapters/mcp.js";

const D06 = "http://json-schema.org/draft-06/schema#";
const D2019 = "https://json-schema.org/draft/2019-09/schema";

interface Tool {
  outputSchema: Record<string, unknown>;
  /** Results, each with whether the dialect's validator accepts it. */
  results: [unknown, boolean][];
}

/** Output schemas as servers publish them, with results on both sides of each translated keyword. */
const TOOLS: Record<string, Tool> = {
  pair_2019: {
    outputSchema: {
      $schema: D2019,
      type: "object",
      properties: { pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false } },
      required: ["pair"],
    },
    results: [
      [{ pair: ["a", 1] }, true],
      [{ pair: ["a", "b"] }, false],
      [{ pair: ["a", 1, 2] }, false],
    ],
  },
  tree_2019: {
    outputSchema: {
      $schema: D2019,
      $id: "https://tools.example/tree",
      $recursiveAnchor: true,
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $recursiveRef: "#" } } },
      required: ["name"],
    },
    results: [
      [{ name: "root", children: [{ name: "leaf" }] }, true],
      [{ name: "root", children: [{ leaf: true }] }, false],
    ],
  },
  count_06: {
    outputSchema: {
      $schema: D06,
      type: "object",
      properties: { n: { type: "number", exclusiveMinimum: 0 }, kind: { const: "count" } },
      required: ["n", "kind"],
    },
    results: [
      [{ n: 1, kind: "count" }, true],
      [{ n: 0, kind: "count" }, false],
      [{ n: 1, kind: "other" }, false],
    ],
  },
};

/** 2019-09 leaves unsaid whether `contains` evaluates items for `unevaluatedItems`: no exact translation. */
const UNDECIDED = {
  $schema: D2019,
  type: "object",
  properties: { list: { type: "array", contains: { type: "string" }, unevaluatedItems: { type: "integer" } } },
};

const published = () => [
  ...Object.entries(TOOLS).map(([name, t]) => ({
    name,
    inputSchema: { type: "object" },
    outputSchema: t.outputSchema,
  })),
  { name: "undecided", inputSchema: { type: "object" }, outputSchema: UNDECIDED },
];

/** The tools/call answer: the `case`-th result of the tool named. */
function answer(name: string, args: Record<string, unknown> | undefined) {
  const structuredContent =
    name === "undecided" ? { list: ["a", 1] } : TOOLS[name]?.results[Number(args?.["case"] ?? 0)]?.[0];
  return { content: [], structuredContent };
}

type Outcome = "accepted" | `refused: ${string}`;

interface Session {
  call(name: string, index: number): Promise<Outcome>;
  close(): Promise<void>;
}

async function outcome(call: Promise<unknown>): Promise<Outcome> {
  try {
    await call;
    return "accepted";
  } catch (e) {
    return `refused: ${(e as Error).message}`;
  }
}

/** What a connected client and server of either SDK version offer the session. */
interface Connected {
  client: { callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };
  close(): Promise<void>;
}

/** A session over a connected pair, after the client listed the tools (which compiles their output schemas). */
async function session(connected: Connected, listTools: () => Promise<unknown>): Promise<Session> {
  await listTools();
  return {
    call: (name, index) => outcome(connected.client.callTool({ name, arguments: { case: index } })),
    close: () => connected.close(),
  };
}

async function sdk1(provider?: Provider1): Promise<Session> {
  const server = new Server1({ name: "older-dialects", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: published() as never }));
  server.setRequestHandler(CallToolRequestSchema, (r) => answer(r.params.name, r.params.arguments) as never);
  const client = new Client1({ name: "c", version: "1.0.0" }, provider ? { jsonSchemaValidator: provider } : {});
  const [ct, st] = Transport1.createLinkedPair();
  await Promise.all([server.connect(st), client.connect(ct)]);
  const close = async () => {
    await client.close();
    await server.close();
  };
  return session({ client, close }, () => client.listTools());
}

async function sdk2(provider?: Provider2): Promise<Session> {
  const server = new Server2({ name: "older-dialects", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: published() as never }));
  server.setRequestHandler("tools/call", (r) => answer(r.params.name, r.params.arguments) as never);
  const client = new Client2({ name: "c", version: "1.0.0" }, provider ? { jsonSchemaValidator: provider } : {});
  const [ct, st] = Transport2.createLinkedPair();
  await Promise.all([server.connect(st), client.connect(ct)]);
  const close = async () => {
    await client.close();
    await server.close();
  };
  return session({ client, close }, () => client.listTools());
}

/** Every translated tool's outcomes through a session, as `name#case: accepted|refused`. */
async function verdicts(session: Session): Promise<string[]> {
  const out: string[] = [];
  try {
    for (const [name, tool] of Object.entries(TOOLS)) {
      for (let i = 0; i < tool.results.length; i++) {
        const result = await session.call(name, i);
        out.push(`${name}#${i}: ${result === "accepted" ? "accepted" : "refused"}`);
      }
    }
  } finally {
    await session.close();
  }
  return out;
}

const expected = Object.entries(TOOLS).flatMap(([name, tool]) =>
  tool.results.map(([, valid], i) => `${name}#${i}: ${valid ? "accepted" : "refused"}`),
);

describe("SDK 2.x (@modelcontextprotocol/client 2.4.0)", () => {
  test("its own providers (ajv, cfworker) and ours give each dialect's verdicts", async () => {
    assert.deepEqual(await verdicts(await sdk2()), expected, "the SDK's default (ajv) provider");
    const cfworker = await verdicts(await sdk2(new CfWorkerJsonSchemaValidator()));
    assert.deepEqual(await verdicts(await sdk2(new BackplaneJsonSchemaValidator())), expected, "our provider");
    // cfworker reads `items` arrays and `$recursiveRef` as 2019-09 does, and draft-06 as its draft-07 mode does.
    assert.deepEqual(cfworker, expected, "the SDK's cfworker provider");
  });

  test("what cannot be translated exactly is refused with the reason; legacyDialects: 'refuse' names the option", async () => {
    const session = await sdk2(new BackplaneJsonSchemaValidator());
    try {
      const refused = await session.call("undecided", 0);
      assert.match(refused, /unsupported_capability\/upgrade_blocked: .*2019-09 does not say whether/);
    } finally {
      await session.close();
    }
    const strict = await sdk2(new BackplaneJsonSchemaValidator({ legacyDialects: "refuse" }));
    try {
      assert.match(
        await strict.call("pair_2019", 0),
        /dialect_unsupported: .*\(pass legacyDialects: "upgrade" to translate a 2019-09 schema exactly\)/,
      );
    } finally {
      await strict.close();
    }
  });
});

describe("SDK 1.x (@modelcontextprotocol/sdk 1.32.2)", () => {
  test("our provider gives each dialect's verdicts", async () => {
    assert.deepEqual(await verdicts(await sdk1(new BackplaneJsonSchemaValidator())), expected);
  });

  test("its default provider agrees wherever reading the schema as draft-07 is right", async () => {
    const theirs = await verdicts(await sdk1());
    // ajv's draft-07 class does not know $recursiveRef (an unknown keyword to it): the misnamed child passes.
    const misread = new Set(["tree_2019#1: refused"]);
    assert.deepEqual(
      theirs.filter((v, i) => v === expected[i]),
      expected.filter((v) => !misread.has(v)),
    );
  });
});
