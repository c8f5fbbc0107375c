/**
 * The SDK client the gateway tests put in front of it, in-process (in-process.ts) and over stdio (test/live): it
 * declares roots, sampling and form elicitation, answers `roots/list` with one root and every elicitation with
 * `elicit()` (a decline by default), keeping what it was asked. Each caller adds its own sampling handler.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, ListRootsRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";

export function answeringClient(
  name: string,
  elicit: (() => ElicitResult) | undefined,
): { client: Client; elicitations: unknown[] } {
  const client = new Client(
    { name, version: "1.0.0" },
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {} } } },
  );
  const elicitations: unknown[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicitations.push(request.params);
    return elicit?.() ?? { action: "decline" };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///tmp/root", name: "root" }] }));
  return { client, elicitations };
}
