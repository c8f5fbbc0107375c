/**
 * `backplane-agent-runtime/mcp` end to end with the real MCP TypeScript SDK: a Server and a Client over
 * the SDK's in-memory transport, both using BackplaneJsonSchemaValidator as `jsonSchemaValidator`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator, JsonSchemaType } from "@modelcontextprotocol/sdk/validation/index.js";
import { z } from "zod";
import {
  BackplaneJsonSchemaValidator,
  type BackplaneJsonSchemaValidatorOptions,
  type JsonSchemaValidator,
} from "../../src/adapters/mcp.js";

/** Counts the schemas it was asked for, so the tests prove the SDK really used our provider. */
class CountingValidator extends BackplaneJsonSchemaValidator {
  readonly seen: unknown[] = [];
  override getValidator<T>(schema: object): JsonSchemaValidator<T> {
    this.seen.push(schema);
    return super.getValidator<T>(schema);
  }
}

// Type level: the provider is the SDK's interface.
const asSdk: jsonSchemaValidator = new BackplaneJsonSchemaValidator();
void asSdk;

const outputSchema = {
  type: "object",
  properties: { sum: { type: "integer" }, items: { type: "array", items: { type: "string" } } },
  required: ["sum"],
  additionalProperties: false,
} as const;

const requestedSchema = {
  type: "object",
  properties: {
    email: { type: "string", format: "email" },
    age: { type: "integer", minimum: 0 },
  },
  required: ["email"],
} as const;

async function connect(
  serverValidator: jsonSchemaValidator,
  clientValidator: jsonSchemaValidator,
  elicitReply: () => ElicitResult,
) {
  const server = new Server(
    { name: "test-server", version: "1.0.0" },
    { capabilities: { tools: {} }, jsonSchemaValidator: serverValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "add",
        inputSchema: { type: "object" },
        outputSchema: outputSchema as unknown as JsonSchemaType & { type: "object" },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    const structured = args["broken"] === true ? { sum: "three", extra: 1 } : { sum: 3, items: ["a"] };
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  });
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, jsonSchemaValidator: clientValidator },
  );
  client.setRequestHandler(ElicitRequestSchema, () => elicitReply());
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    server,
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe("MCP SDK with BackplaneJsonSchemaValidator", () => {
  test("tool outputSchema: valid structuredContent passes, invalid is reported by the client", async () => {
    const clientValidator = new CountingValidator();
    const { client, close } = await connect(new CountingValidator(), clientValidator, () => ({ action: "cancel" }));
    try {
      await client.listTools();
      assert.deepEqual(
        clientValidator.seen,
        [outputSchema],
        "the client compiled the tool's output schema with our provider",
      );
      const ok = await client.callTool({ name: "add", arguments: {} });
      assert.deepEqual(ok.structuredContent, { sum: 3, items: ["a"] });
      await assert.rejects(client.callTool({ name: "add", arguments: { broken: true } }), (e: unknown) => {
        assert.ok(e instanceof McpError);
        assert.match(e.message, /Structured content does not match the tool's output schema/);
        assert.match(e.message, /\/sum: .*integer/);
        assert.match(e.message, /must not have properties other than those the schema allows/);
        // The provider's text reaches clients and models: no value of the result, no key it chose.
        assert.doesNotMatch(e.message, /extra|three|got/);
        return true;
      });
    } finally {
      await close();
    }
  });

  test("elicitation: a valid response is returned, an invalid one is rejected by the server", async () => {
    let reply: ElicitResult = { action: "accept", content: { email: "ada@example.com", age: 36 } };
    // formatAssertion: true, as the SDK's default Ajv provider (ajv-formats): "format" asserts.
    const serverValidator = new CountingValidator({ formatAssertion: true });
    const { server, close } = await connect(serverValidator, new CountingValidator(), () => reply);
    try {
      const good = await server.elicitInput({ message: "Who are you?", requestedSchema: requestedSchema as never });
      assert.equal(good.action, "accept");
      assert.deepEqual(good.content, { email: "ada@example.com", age: 36 });
      assert.equal(serverValidator.seen.length, 1);

      reply = { action: "accept", content: { email: "ada@example.com", age: -1 } };
      await assert.rejects(
        server.elicitInput({ message: "Who are you?", requestedSchema: requestedSchema as never }),
        (e: unknown) => {
          assert.ok(e instanceof McpError);
          assert.match(e.message, /Elicitation response content does not match requested schema/);
          assert.match(e.message, /\/age: .*at least 0/);
          return true;
        },
      );

      // format asserts with formatAssertion: true, as with the SDK's default Ajv provider.
      reply = { action: "accept", content: { email: "not an email" } };
      await assert.rejects(
        server.elicitInput({ message: "Who are you?", requestedSchema: requestedSchema as never }),
        /\/email: /,
      );

      reply = { action: "decline" };
      assert.equal(
        (await server.elicitInput({ message: "Who are you?", requestedSchema: requestedSchema as never })).action,
        "decline",
      );
    } finally {
      await close();
    }
  });

  test("elicitation: true checks requested schemas with ElicitationSchema on the server", async () => {
    let reply: ElicitResult = { action: "accept", content: { email: "ada@example.com", age: 36 } };
    const serverValidator = new BackplaneJsonSchemaValidator({ elicitation: true });
    const { server, close } = await connect(serverValidator, new CountingValidator(), () => reply);
    const ask = (schema: unknown) => server.elicitInput({ message: "Who are you?", requestedSchema: schema as never });
    try {
      assert.deepEqual((await ask(requestedSchema)).content, { email: "ada@example.com", age: 36 });
      reply = { action: "accept", content: { email: "ada@example.com", age: -7 } };
      await assert.rejects(ask(requestedSchema), (e: unknown) => {
        assert.ok(e instanceof McpError);
        assert.match(e.message, /does not match requested schema: \/age: must be at least 0/);
        assert.ok(!e.message.includes("-7"), "the value is not quoted");
        return true;
      });
      reply = { action: "accept", content: { email: "ada@example.com", extra: "x" } };
      await assert.rejects(ask(requestedSchema), /1 property the requested schema does not declare/);
      // The SDK's own request check refuses a nested schema before sending it; the provider refuses it too.
      const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
      assert.match(
        serverValidator.getValidator(nested)({ address: {} }).errorMessage ?? "",
        /^schema cannot be used for elicitation: unsupported_capability\/elicitation_unsupported: .* \(at schema "\/properties\/address\/type"\)$/,
      );
    } finally {
      await close();
    }
    assert.throws(
      () => new BackplaneJsonSchemaValidator({ elicitation: true, schemaRegistry: {} }),
      /option "schemaRegistry" does not apply with elicitation: true/,
    );
    assert.throws(() => new BackplaneJsonSchemaValidator({ elicitation: "yes" as never }), /must be a boolean/);
  });

  test("McpServer (Zod tool schemas are emitted as draft-07): rejected with draft07: 'reject', accepted with 'upgrade' (the default)", async () => {
    for (const draft07 of ["reject", "upgrade", undefined] as const) {
      const options: BackplaneJsonSchemaValidatorOptions = draft07 === undefined ? {} : { draft07 };
      const mcp = new McpServer(
        { name: "zod-server", version: "1.0.0" },
        { jsonSchemaValidator: new BackplaneJsonSchemaValidator(options) },
      );
      mcp.registerTool(
        "add",
        { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
        ({ a, b }) => ({
          content: [{ type: "text", text: String(a + b) }],
          structuredContent: { sum: a + b },
        }),
      );
      const client = new Client(
        { name: "c", version: "1.0.0" },
        { jsonSchemaValidator: new BackplaneJsonSchemaValidator(options) },
      );
      const [ct, st] = InMemoryTransport.createLinkedPair();
      await Promise.all([mcp.connect(st), client.connect(ct)]);
      try {
        const { tools } = await client.listTools();
        assert.match(String((tools[0]!.outputSchema as Record<string, unknown>)["$schema"]), /draft-07/);
        const call = client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
        if (draft07 === "reject") {
          await assert.rejects(call, /unsupported_capability\/dialect_unsupported.*draft07: "upgrade"/);
        } else {
          assert.deepEqual((await call).structuredContent, { sum: 3 });
        }
      } finally {
        await client.close();
        await mcp.close();
      }
    }
  });
});

describe("BackplaneJsonSchemaValidator unit", () => {
  test("caches per schema object; never throws for a bad schema, names class and code", () => {
    const p = new BackplaneJsonSchemaValidator();
    const schema = { type: "string" };
    assert.equal(p.getValidator(schema), p.getValidator(schema));
    assert.notEqual(p.getValidator(schema), p.getValidator({ type: "string" }));
    const ok = p.getValidator<string>(schema)("x");
    assert.deepEqual(ok, { valid: true, data: "x", errorMessage: undefined });
    assert.deepEqual(p.getValidator(schema)(1), {
      valid: false,
      data: undefined,
      errorMessage: '/: must be string (expected by "type" at /type)',
    });

    const draft3 = p.getValidator({ $schema: "http://json-schema.org/draft-03/schema#" });
    const r = draft3({});
    assert.equal(r.valid, false);
    assert.match(
      r.errorMessage!,
      /^schema cannot be used for validation: unsupported_capability\/dialect_unsupported: /,
    );

    const invalid = p.getValidator({ type: "nonsense" })("x");
    assert.match(invalid.errorMessage!, /validation\/schema_invalid.*at schema/);

    const unresolved = p.getValidator({ $ref: "https://example.test/missing" })("x");
    assert.match(unresolved.errorMessage!, /^schema cannot be used for validation: validation\//);
  });

  test("the data on success is the very same reference; errors are capped in the message", () => {
    const p = new BackplaneJsonSchemaValidator({ maxErrorsInMessage: 2 });
    const value = { a: 1 };
    const r = p.getValidator({ type: "object" })(value);
    assert.ok(r.valid);
    assert.equal(r.data, value);
    const many = p.getValidator({ type: "array", items: { type: "string" } })([1, 2, 3, 4]);
    assert.equal(
      many.errorMessage,
      '/0: must be string (expected by "type" at /items/type); /1: must be string (expected by "type" at /items/type); ' +
        "and 2 more errors",
    );
  });

  test("compile options pass through: registry, formatAssertion off", () => {
    const p = new BackplaneJsonSchemaValidator({
      formatAssertion: false,
      schemaRegistry: { "https://example.test/name": { type: "string", minLength: 2 } },
    });
    assert.equal(p.getValidator({ $ref: "https://example.test/name" })("ab").valid, true);
    assert.equal(p.getValidator({ $ref: "https://example.test/name" })("a").valid, false);
    assert.equal(p.getValidator({ type: "string", format: "email" })("nope").valid, true);
  });

  test("draft07: 'upgrade' (the default) translates exactly or fails closed; draft07: 'reject' names the option", () => {
    for (const p of [new BackplaneJsonSchemaValidator(), new BackplaneJsonSchemaValidator({ draft07: "upgrade" })]) {
      const blocked = p.getValidator({
        $schema: "http://json-schema.org/draft-07/schema#",
        properties: { a: { $id: "#x" }, b: { $id: "#x" } },
      });
      assert.match(blocked({}).errorMessage!, /unsupported_capability\/upgrade_blocked: .*#x/);
    }
    const reject = new BackplaneJsonSchemaValidator({ draft07: "reject" });
    assert.match(
      reject.getValidator({ $schema: "http://json-schema.org/draft-07/schema#" })(1).errorMessage!,
      /dialect_unsupported: .*\(pass draft07: "upgrade" to translate a draft-07 schema exactly\)/,
    );
    const p = new BackplaneJsonSchemaValidator();
    const v = p.getValidator({
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { n: { type: "integer" } },
      items: { $ref: "#/definitions/n" },
    });
    assert.equal(v([1, 2]).valid, true);
    assert.match(v([1, "x"]).errorMessage!, /\/1: /);
    assert.match(
      p.getValidator({ $schema: "http://json-schema.org/draft-03/schema#" })(1).errorMessage!,
      /dialect_unsupported/,
    );
  });

  test("a limit hit during validation fails closed instead of throwing", () => {
    const p = new BackplaneJsonSchemaValidator({ limits: { maxInstanceDepth: 3 } });
    const r = p.getValidator({ items: { $ref: "#" } })([[[[[[1]]]]]]);
    assert.equal(r.valid, false);
    assert.match(r.errorMessage!, /^validation did not complete: execution_failure\/limit_exceeded: /);
  });
});
