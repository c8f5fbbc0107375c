/**
 * Batch admission and the gateways (docs/guide/admission.md): a catalog of two servers admitted in quarantine, a host
 * whose stages log what runs, calls that never reach a stage (an unknown tool, bad arguments, no grant), a refused
 * and an accepted call, a result that does not match its output schema, and a conversation across a catalog update.
 */

import { Conversation, Execution, ToolCatalog, type ExecutionHost, type StageContext } from "backplane-agent-runtime";

const tools = [
  {
    name: "list_issues",
    revision: "1.0.0",
    backend: "tracker",
    inputSchema: { type: "object", properties: { state: { enum: ["open", "closed"] } } },
    outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
  },
  {
    name: "delete_issue",
    revision: "1.0.0",
    backend: "tracker",
    inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
  },
  {
    name: "read_file",
    revision: "0.9.0",
    backend: "files",
    inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" }, // not 2020-12
  },
];
const backends = ["tracker", "files"];
const authority = { caller: "mona", grants: { list_issues: {}, read_file: {} } }; // no grant for delete_issue

const admitted = ToolCatalog.admitBatch(tools, { mode: "quarantine", backends, authority });
if (!admitted.ok) throw new Error(admitted.error.message);
const bundle = admitted.value;
console.log("accepted:", bundle.accepted.join(", "), "| quarantined:", bundle.rejected.map((r) => r.name).join(", "));

const ran: string[] = [];
const stage = (name: string) => (context: StageContext) => {
  ran.push(name);
  // Omitted arguments were checked as {} and are handed on as given: undefined.
  return context.name !== "list_issues" || (context.arguments as { state?: string } | undefined)?.state !== "closed";
};
const host: ExecutionHost<unknown> = {
  authorize: stage("authorize"),
  approve: stage("approve"),
  dispatch: ({ arguments: args }) => {
    ran.push("dispatch");
    const open = (args as { state?: string } | undefined)?.state === "open";
    return { content: [], structuredContent: { count: open ? 3 : 1.5 } }; // 1.5 is no integer
  },
};
const calls = [
  { name: "create_issue", arguments: {} },
  { name: "list_issues", arguments: { state: "all" } },
  { name: "delete_issue", arguments: { id: 7 } },
  { name: "read_file", arguments: {} },
  { name: "list_issues", arguments: { state: "closed" } },
  { name: "list_issues", arguments: { state: "open" } },
  { name: "list_issues" },
];
for (const call of calls) {
  ran.length = 0;
  const result = await Execution.invoke(bundle, call, host);
  const verdict = result.ok ? "ok" : `${result.error.code} at ${result.error.stage}`;
  const args = JSON.stringify(call.arguments) ?? "(omitted)";
  console.log(`${call.name} ${args}: ${verdict}; ran: ${ran.join(" → ") || "nothing"}`);
}

// A conversation keeps one admitted bundle in force; a refused update leaves it in place.
const conversation = Conversation.start({ tools: tools.slice(0, 2), backends, authority: { caller: "mona" } });
const update = conversation.updateCatalog([...tools, tools[0]]); // a duplicate name: refused
console.log(update.ok ? "updated" : `update refused: ${update.error.code}`, conversation.current.accepted);

// Output:
// accepted: list_issues, delete_issue | quarantined: read_file
// create_issue {}: tool_unknown at lookup; ran: nothing
// list_issues {"state":"all"}: arguments_invalid at arguments; ran: nothing
// delete_issue {"id":7}: grant_missing at authorize; ran: nothing
// read_file {}: tool_quarantined at lookup; ran: nothing
// list_issues {"state":"closed"}: stage_refused at authorize; ran: authorize
// list_issues {"state":"open"}: ok; ran: authorize → approve → dispatch
// list_issues (omitted): output_invalid at result; ran: authorize → approve → dispatch
// update refused: tool_duplicate [ 'list_issues', 'delete_issue' ]
