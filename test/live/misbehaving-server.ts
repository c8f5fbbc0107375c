/**
 * A stdio MCP server (SDK 1.x) that misbehaves on request, for the gateway's live tests: `node misbehaving-server.js
 * serve <name>`. Its tools: `echo` (trivial), `add` (with an outputSchema; `broken: true` breaks it), `hang` (never
 * answers; says on stderr when it is cancelled), `freeze` (stops reading its stdin: it hangs whole), `crash` (exits),
 * `garbage` (writes `lines` lines that are not JSON, then answers), `huge` (answers with a message of `bytes` bytes),
 * `redescribe` (changes `echo`'s description and sends `tools/list_changed`), `elicit` (asks the client with a nested
 * or a flat `requestedSchema` and answers with what came back), `progress` (reports progress), `sample` and `roots`
 * (ask the client), `log` (three log messages, then its answer), `capabilities` (the client capabilities it was
 * offered). `serve <name> bad-tools` adds two tools the gateway must leave out; `serve <name> format-tools` adds
 * `link`, whose schemas state `format` and answers with its arguments as its result; `banner` prints a line that is
 * not JSON on stdout first; `exit3` writes two stderr lines and exits 3. Imported, or run without `serve` (as the test
 * runner does), it does nothing.
 */

import { pathToFileURL } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** The schema `elicit` asks with when `nested` is false: flat, inside the MCP subset. */
export const FLAT_FORM = {
  type: "object",
  properties: { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 } },
  required: ["name"],
};

/** The schema `elicit` asks with when `nested` is true: an object property, outside the subset. */
export const NESTED_FORM = {
  type: "object",
  properties: { address: { type: "object", properties: { city: { type: "string" } } } },
};

const AS_SENT = { safeParse: (data: unknown) => ({ success: true, data }) } as never;

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

function tools(echoDescription: string) {
  const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
    type: "object" as const,
    properties,
    required,
  });
  return [
    { name: "echo", description: echoDescription, inputSchema: object({ message: { type: "string" } }, ["message"]) },
    {
      name: "add",
      description: "Adds two integers.",
      inputSchema: object({ a: { type: "integer" }, b: { type: "integer" }, broken: { type: "boolean" } }, ["a", "b"]),
      outputSchema: object({ sum: { type: "integer" } }, ["sum"]),
    },
    { name: "args", description: "Answers with its arguments as JSON.", inputSchema: object() },
    { name: "hang", description: "Never answers.", inputSchema: object() },
    { name: "freeze", description: "Stops reading its input.", inputSchema: object() },
    { name: "crash", description: "Exits.", inputSchema: object() },
    {
      name: "garbage",
      description: "Writes lines that are not JSON (1, or `lines`), then answers.",
      inputSchema: object({ lines: { type: "integer" } }),
    },
    {
      name: "huge",
      description: "Answers with a large message.",
      inputSchema: object({ bytes: { type: "integer" } }, ["bytes"]),
    },
    {
      name: "redescribe",
      description: "Changes echo.",
      inputSchema: object({ description: { type: "string" } }, ["description"]),
    },
    { name: "elicit", description: "Asks the user.", inputSchema: object({ nested: { type: "boolean" } }, ["nested"]) },
    {
      name: "progress",
      description: "Reports progress.",
      inputSchema: object({ steps: { type: "integer" } }, ["steps"]),
    },
    {
      name: "sample",
      description: "Asks the client's model (giving up after timeoutMs, when given).",
      inputSchema: object({ prompt: { type: "string" }, timeoutMs: { type: "integer" } }),
    },
    { name: "roots", description: "Asks the client's roots.", inputSchema: object() },
    { name: "log", description: "Sends three log messages, then answers.", inputSchema: object() },
    {
      name: "capabilities",
      description: "Answers with the client capabilities it was offered.",
      inputSchema: object(),
    },
  ];
}

/** With `bad-tools`: one tool whose schema does not compile, one in a dialect no upgrade covers. */
const BAD_TOOLS = [
  { name: "bad_schema", inputSchema: { type: "object", properties: { x: { type: "strin" } } } },
  {
    name: "old_dialect",
    inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: {} },
  },
];

/** The properties of `link`'s arguments and result: what real servers state with `format` and content keywords. */
const LINKED = {
  url: { type: "string", format: "uri" },
  id: { type: "string", format: "uuid" },
  blob: { type: "string", contentEncoding: "base64", contentMediaType: "application/json" },
};

/** With `format-tools`: `link`, its arguments and its result under `format` and content keywords. */
const FORMAT_TOOLS = [
  {
    name: "link",
    description: "Answers with its arguments as its structured result.",
    inputSchema: { type: "object", properties: LINKED },
    outputSchema: { type: "object", properties: LINKED },
  },
];

async function serve(name: string, extra: string | undefined): Promise<void> {
  if (process.argv.includes("banner")) process.stdout.write(`${name} MCP server running on stdio\n`);
  if (process.argv.includes("exit3")) {
    process.stderr.write("loading settings\nError: the API key is missing\n");
    process.exit(3);
  }
  let echoDescription = `Echoes the message (${name}).`;
  const server = new Server(
    { name, version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...tools(echoDescription),
      ...(extra === "bad-tools" ? BAD_TOOLS : []),
      ...(extra === "format-tools" ? FORMAT_TOOLS : []),
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    process.stderr.write(`call ${request.params.name}\n`);
    switch (request.params.name) {
      case "args":
        return text(JSON.stringify(request.params.arguments));
      case "link":
        return { ...text(JSON.stringify(args)), structuredContent: args };
      case "echo":
        return text(`${name}: ${String(args["message"])}`);
      case "add": {
        const sum = Number(args["a"]) + Number(args["b"]);
        const structured = args["broken"] === true ? { sum: `${sum} (as text)` } : { sum };
        return { ...text(JSON.stringify(structured)), structuredContent: structured };
      }
      case "hang":
        return new Promise((resolve) => {
          extra.signal.addEventListener("abort", () => {
            process.stderr.write("hang: cancelled\n");
            resolve(text("cancelled"));
          });
        });
      case "freeze":
        process.stdin.pause();
        process.stdin.removeAllListeners("data");
        setInterval(() => undefined, 60_000); // alive, but deaf
        return new Promise(() => undefined);
      case "crash":
        setTimeout(() => process.exit(3), 10);
        return new Promise(() => undefined);
      case "garbage": {
        const lines = typeof args["lines"] === "number" ? args["lines"] : 1;
        for (let i = 0; i < lines; i++) process.stdout.write(`this line is not JSON (${i})\n`);
        return text(`wrote ${lines} lines`);
      }
      case "huge":
        return text("x".repeat(Number(args["bytes"])));
      case "redescribe":
        echoDescription = String(args["description"]);
        await server.sendToolListChanged();
        return text("redescribed");
      case "elicit": {
        const requestedSchema = args["nested"] === true ? NESTED_FORM : FLAT_FORM;
        try {
          const answer = await server.request(
            { method: "elicitation/create", params: { mode: "form", message: "Who are you?", requestedSchema } },
            AS_SENT,
          );
          return text(`answer: ${JSON.stringify(answer)}`);
        } catch (e) {
          return text(`error: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      case "progress": {
        const token = request.params._meta?.progressToken;
        const steps = Number(args["steps"]);
        for (let i = 1; i <= steps && token !== undefined; i++) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: steps },
          });
          // The SDK delivers a notification after the handler's answer if the answer follows at once.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return text(`progressed ${steps}`);
      }
      case "sample": {
        let progress = 0;
        const prompt = typeof args["prompt"] === "string" ? args["prompt"] : "hello";
        const timeout = typeof args["timeoutMs"] === "number" ? { timeout: args["timeoutMs"] } : {};
        try {
          const answer = await server.request(
            {
              method: "sampling/createMessage",
              params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 10 },
            },
            AS_SENT,
            { onprogress: () => progress++, ...timeout },
          );
          return text(`sampled (${progress} progress): ${JSON.stringify(answer)}`);
        } catch (e) {
          return text(`sampling failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      case "capabilities":
        return text(JSON.stringify(server.getClientCapabilities() ?? {}));
      case "log":
        for (let i = 1; i <= 3; i++) await server.sendLoggingMessage({ level: "info", data: `log ${i}` });
        return text("logged 3");
      case "roots":
        return text(`roots: ${JSON.stringify(await server.request({ method: "roots/list" }, AS_SENT))}`);
      default:
        return { ...text(`unknown tool ${request.params.name}`), isError: true };
    }
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`pid ${process.pid}\n`);
}

const [mode, name, extra] = process.argv.slice(2);
const main = process.argv[1];
if (main !== undefined && import.meta.url === pathToFileURL(main).href && mode === "serve" && name !== undefined) {
  await serve(name, extra);
}
