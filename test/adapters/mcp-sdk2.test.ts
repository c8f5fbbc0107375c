/**
 * MCP TypeScript SDK 2.x (`@modelcontextprotocol/server` / `client` 2.4.0) end to end over its in-memory transport:
 * the provider as a 2.x `Client`'s `jsonSchemaValidator`, and compiled validators (Standard Schema v1 + Standard JSON
 * Schema) as `registerTool`'s `inputSchema`/`outputSchema` on a 2.x `McpServer`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client, ProtocolError, type jsonSchemaValidator } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer, Server } from "@modelcontextprotocol/server";
import { BackplaneJsonSchemaValidator, type JsonSchemaValidator } from "../../src/adapters/mcp.js";
import { compile } from "../../src/index.js";

/** Records the schemas the SDK asked for, so the tests prove it used our provider. */
class CountingValidator extends BackplaneJsonSchemaValidator {
  readonly seen: unknown[] = [];
  override getValidator<T>(schema: object): JsonSchemaValidator<T> {
    this.seen.push(schema);
    return super.getValidator<T>(schema);
  }
}

// Type level: the provider is SDK 2.x's interface.
const asSdk2: jsonSchemaValidator = new BackplaneJsonSchemaValidator();
void asSdk2;

const inputSchema = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
  additionalProperties: false,
};
const outputSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };

async function connect(server: McpServer | Server, validator: jsonSchemaValidator) {
  const client = new Client({ name: "test-client", version: "1.0.0" }, { jsonSchemaValidator: validator });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("SDK 2.x McpServer with compiled validators as tool schemas", () => {
  async function addServer() {
    const server = new McpServer({ name: "adder", version: "1.0.0" });
    const calls: unknown[] = [];
    server.registerTool(
      "add",
      { description: "Adds two numbers.", inputSchema: compile(inputSchema), outputSchema: compile(outputSchema) },
      (input) => {
        // The compiled validator's output type is unknown: it validates, it does not infer.
        const args = input as { a: number; b: number };
        calls.push(args);
        // a = 99 makes the tool break its own output schema.
        const sum = args.a === 99 ? "ninety-nine" : args.a + args.b;
        return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
      },
    );
    const validator = new CountingValidator();
    return { ...(await connect(server, validator)), calls, validator };
  }

  test("tools/list publishes the compiled schemas as 2020-12 JSON Schema", async () => {
    const { client, close } = await addServer();
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => JSON.parse(JSON.stringify([t.name, t.description, t.inputSchema, t.outputSchema]))),
        [["add", "Adds two numbers.", inputSchema, outputSchema]],
      );
    } finally {
      await close();
    }
  });

  test("a valid call runs; the client checks structuredContent with our provider", async () => {
    const { client, close, calls, validator } = await addServer();
    try {
      await client.listTools();
      const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
      assert.deepEqual(result.structuredContent, { sum: 3 });
      assert.deepEqual(calls, [{ a: 1, b: 2 }], "the handler receives the very arguments");
      assert.deepEqual(
        validator.seen,
        [outputSchema],
        "the client compiled the listed output schema with our provider",
      );
    } finally {
      await close();
    }
  });

  test("an invalid call is answered with our message and never reaches the handler", async () => {
    const { client, close, calls } = await addServer();
    try {
      const result = await client.callTool({ name: "add", arguments: { a: "1", b: 2, c: 3 } });
      assert.equal(result.isError, true);
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      assert.match(text, /a: must be number, got string/);
      assert.match(text, /property "c" is not allowed \(additionalProperties is false\)/);
      assert.deepEqual(calls, []);
    } finally {
      await close();
    }
  });

  test("structured output is validated by the compiled output schema on the server", async () => {
    const { client, close } = await addServer();
    try {
      const result = await client.callTool({ name: "add", arguments: { a: 99, b: 1 } });
      assert.equal(result.isError, true);
      assert.match((result.content as { text: string }[])[0]?.text ?? "", /sum: must be number, got string/);
    } finally {
      await close();
    }
  });
});

describe("SDK 2.x Client with BackplaneJsonSchemaValidator", () => {
  test("structuredContent that breaks the listed outputSchema is refused with our message", async () => {
    const server = new Server({ name: "raw", version: "1.0.0" }, { capabilities: { tools: {} } });
    const listed = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    server.setRequestHandler("tools/list", () => ({
      tools: [{ name: "count", inputSchema: { type: "object" }, outputSchema: listed }],
    }));
    server.setRequestHandler("tools/call", (request) => ({
      content: [],
      structuredContent: request.params.arguments?.["broken"] === true ? { n: "two" } : { n: 2 },
    }));
    const validator = new CountingValidator();
    const { client, close } = await connect(server, validator);
    try {
      // The client checks results against the outputSchema it listed.
      await client.listTools();
      assert.deepEqual((await client.callTool({ name: "count", arguments: {} })).structuredContent, { n: 2 });
      await assert.rejects(client.callTool({ name: "count", arguments: { broken: true } }), (e: unknown) => {
        assert.ok(e instanceof ProtocolError);
        assert.match(e.message, /Structured content does not match the tool's output schema: \/n: must be integer/);
        return true;
      });
      assert.deepEqual(validator.seen, [listed]);
    } finally {
      await close();
    }
  });
});
