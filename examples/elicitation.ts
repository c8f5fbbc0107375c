/**
 * Elicitation (docs/guide/elicitation.md): an SDK 1.x server that asks the user for a form, with
 * `BackplaneJsonSchemaValidator({ elicitation: true })` as its provider, so that the content a client returns is
 * checked against the requested schema with `ElicitationSchema` (messages that quote no value); and the check on its
 * own, on a requested schema outside the MCP form-mode subset.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { ElicitationSchema } from "backplane-agent-runtime";
import { BackplaneJsonSchemaValidator } from "backplane-agent-runtime/mcp";

const jsonSchemaValidator = new BackplaneJsonSchemaValidator({ elicitation: true });
const server = new Server({ name: "signup", version: "1.0.0" }, { capabilities: {}, jsonSchemaValidator });
const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
let answer: ElicitResult = { action: "accept", content: { email: "ada@example.com", seats: 2 } };
client.setRequestHandler(ElicitRequestSchema, () => answer); // a person filling in the form
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

const requestedSchema = {
  type: "object" as const,
  properties: {
    email: { type: "string" as const, format: "email" as const },
    seats: { type: "integer" as const, minimum: 1, maximum: 10 },
  },
  required: ["email"],
};
const ask = () => server.elicitInput({ message: "Sign up", requestedSchema });
console.log(await ask());
answer = { action: "accept", content: { email: "ada at example", seats: 40 } };
await ask().catch((e: Error) => console.log(e.message));
await client.close();

// The check on its own: a nested object is outside the subset.
const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
const refused = ElicitationSchema.validateSchema(nested);
if (!refused.ok) console.log(refused.error.code, refused.error.schemaPointer);

// Output:
// { action: 'accept', content: { email: 'ada@example.com', seats: 2 } }
// MCP error -32602: Elicitation response content does not match requested schema: /email: must be a valid email (expected by "format" at /properties/email/format); /seats: must be at most 10 (expected by "maximum" at /properties/seats/maximum)
// elicitation_unsupported /properties/address/type
