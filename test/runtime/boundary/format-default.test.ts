/**
 * One default at every entry point: `format` and the content keywords are annotations unless the host asks
 * (`formatAssertion: true`, `contentAssertion: true`), through the engine, the boundary, admission and calls, the
 * conversation, the MCP provider, the CLI and the gateway. The values are shaped as real servers send them: an empty
 * string under `format: "uri"` (search and scraping results) and a Notion-style id without hyphens under
 * `format: "uuid"`. `ElicitationSchema` alone asserts the formats of the MCP form subset by default.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  compile,
  Conversation,
  ElicitationSchema,
  Execution,
  InputSchema,
  OutputSchema,
  ToolCatalog,
  type InputSchemaOptions,
} from "../../../src/index.js";
import { BackplaneJsonSchemaValidator } from "../../../src/adapters/mcp.js";
import { runCli } from "../../cli/helpers.js";
import { misbehaving, startGateway, textOf } from "../../live/gateway-helpers.js";

const properties = {
  url: { type: "string", format: "uri" },
  id: { type: "string", format: "uuid" },
  blob: { type: "string", contentEncoding: "base64", contentMediaType: "application/json" },
};
const schema = { type: "object", properties };

/** Each value, and the option under which it is refused. */
const cases: readonly { value: Record<string, string>; refusedWith: InputSchemaOptions }[] = [
  { value: { url: "" }, refusedWith: { formatAssertion: true } },
  { value: { id: "59833787d5a24e9b8b8f1c0a7d1d2e3f" }, refusedWith: { formatAssertion: true } },
  { value: { blob: "not base64!" }, refusedWith: { contentAssertion: true } },
];

/** Every case is valid by default and with the option `false`, and refused with the option `true`. */
async function pinned(
  entry: string,
  valid: (value: unknown, options: InputSchemaOptions) => Promise<boolean> | boolean,
) {
  for (const { value, refusedWith } of cases) {
    const [name] = Object.keys(refusedWith) as [keyof InputSchemaOptions];
    assert.equal(await valid(value, {}), true, `${entry}: ${JSON.stringify(value)} by default`);
    assert.equal(await valid(value, { [name]: false }), true, `${entry}: ${JSON.stringify(value)} with ${name}: false`);
    assert.equal(await valid(value, refusedWith), false, `${entry}: ${JSON.stringify(value)} with ${name}: true`);
  }
}

describe("the library: format and content annotate unless the host asks", () => {
  test("compile", () => pinned("compile", (value, options) => compile(schema, options).isValid(value)));

  test("InputSchema and OutputSchema", async () => {
    await pinned("InputSchema", (value, options) => InputSchema.validate(schema, value, options).ok);
    await pinned("OutputSchema", (value, options) => OutputSchema.validate(schema, value, options).ok);
    const refused = InputSchema.validate(schema, { url: "" }, { formatAssertion: true });
    assert.equal(!refused.ok && refused.error.code, "arguments_invalid");
  });

  const tool = { name: "link", revision: "1", inputSchema: schema, outputSchema: schema };

  test("ToolCatalog.admitBatch and Execution.invoke: the arguments reach dispatch, the result is returned", async () => {
    for (const subject of ["arguments", "result"] as const) {
      await pinned(`Execution.invoke (${subject})`, async (value, options) => {
        const admitted = ToolCatalog.admitBatch([tool], options);
        assert.ok(admitted.ok);
        let dispatched = 0;
        const result = await Execution.invoke(
          admitted.value,
          { name: "link", arguments: subject === "arguments" ? value : {} },
          { dispatch: () => (dispatched++, { content: [], structuredContent: subject === "result" ? value : {} }) },
        );
        assert.equal(dispatched, result.ok || subject === "result" ? 1 : 0, "refused arguments never reach dispatch");
        if (!result.ok) assert.equal(result.error.code, subject === "result" ? "output_invalid" : "arguments_invalid");
        return result.ok;
      });
    }
  });

  test("Conversation", async () => {
    await pinned("Conversation", async (value, options) => {
      const conversation = Conversation.start({ tools: [tool], ...options });
      const dispatch = () => ({ content: [], structuredContent: value });
      return (await conversation.invoke({ name: "link", arguments: value }, { dispatch })).ok;
    });
  });

  test("the MCP SDK provider; formatAssertion: true gives the SDK's own provider's verdicts", async () => {
    await pinned("BackplaneJsonSchemaValidator", (value, options) => {
      return new BackplaneJsonSchemaValidator(options).getValidator(schema)(value).valid;
    });
  });

  test("ElicitationSchema, and the provider with elicitation: true, assert the form subset's formats by default", () => {
    const form = { type: "object", properties: { email: { type: "string", format: "email" } } };
    const answer = { action: "accept" as const, content: { email: "not an email" } };
    const compiled = ElicitationSchema.validateSchema(form);
    assert.ok(compiled.ok);
    assert.equal(compiled.value.validate(answer).ok, false);
    const annotated = ElicitationSchema.validateSchema(form, { formatAssertion: false });
    assert.equal(annotated.ok && annotated.value.validate(answer).ok, true);
    const provider = new BackplaneJsonSchemaValidator({ elicitation: true }).getValidator(form);
    assert.equal(provider(answer.content).valid, false);
  });
});

describe("the CLI: format annotates unless --format-assertion", () => {
  const dir = mkdtempSync(join(tmpdir(), "format-default-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => join(dir, name);
  writeFileSync(at("schema.json"), JSON.stringify(schema));
  cases.forEach(({ value }, i) => writeFileSync(at(`value-${i}.json`), JSON.stringify(value)));

  test("validate", () => {
    cases.forEach(({ value, refusedWith }, i) => {
      const flag = refusedWith.formatAssertion === true ? "--format-assertion" : "--content-assertion";
      const plain = runCli(["validate", at("schema.json"), at(`value-${i}.json`)]);
      assert.equal(plain.status, 0, `${JSON.stringify(value)}: ${plain.stdout}${plain.stderr}`);
      const asserted = runCli(["validate", flag, at("schema.json"), at(`value-${i}.json`)]);
      assert.equal(asserted.status, 1, `${JSON.stringify(value)} with ${flag}`);
      assert.match(asserted.stdout, /: invalid/);
    });
  });

  test("admit: an unknown format is refused by --strict-schema only where format asserts", () => {
    const sku = {
      name: "order",
      revision: "1",
      inputSchema: { type: "object", properties: { sku: { format: "sku" } } },
    };
    writeFileSync(at("catalog.json"), JSON.stringify([sku]));
    for (const extra of [[], ["--no-format-assertion"]]) {
      const run = runCli(["admit", "--strict-schema", ...extra, at("catalog.json")]);
      assert.equal(run.status, 0, run.stdout + run.stderr);
    }
    const asserted = runCli(["admit", "--strict-schema", "--format-assertion", at("catalog.json")]);
    assert.equal(asserted.status, 1);
    assert.match(asserted.stdout, /format_unknown/);
  });
});

describe("the gateway: format annotates unless --format-assertion", () => {
  const call = async (args: string[]) => {
    const gateway = await startGateway({ servers: { web: misbehaving("web", "format-tools") }, args: () => args });
    try {
      const outcomes: boolean[] = [];
      for (const { value } of cases.slice(0, 2)) {
        // The client's plain request: the SDK client's own result check stays out of the verdict.
        const params = { name: "web__link", arguments: value };
        const result = await gateway.client.request({ method: "tools/call", params }, CallToolResultSchema);
        if (result.isError !== true) assert.deepEqual(result.structuredContent, value, "the result, unchanged");
        else assert.match(textOf(result), /^The arguments do not match the tool's input schema/);
        outcomes.push(result.isError !== true);
      }
      return outcomes;
    } finally {
      await gateway.close();
    }
  };

  test("an empty uri and a non-RFC uuid pass by default and are refused with --format-assertion", async () => {
    assert.deepEqual(await call([]), [true, true]);
    assert.deepEqual(await call(["--format-assertion"]), [false, false]);
  });
});
