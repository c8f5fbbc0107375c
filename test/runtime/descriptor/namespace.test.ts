/**
 * Servers side by side (docs/guide/pins.md): `namespace` prefixes tool names, per batch
 * or per backend; grants, pins, errors and provider tools use the prefixed name, and `dispatch` gets the server's
 * own name back. Names are held to the MCP rules and `maxToolNameLength`.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  Conversation,
  Execution,
  ToolCatalog,
  type AdmitOptions,
  type AdmittedBundle,
  type CatalogError,
} from "../../../src/index.js";
import { applyNamespace } from "../../../src/runtime/descriptor/namespace.js";

type Json = Record<string, unknown>;
const backends = ["github", "gitlab"];
const createBranch = (backend: string, description = `Creates a branch on ${backend}.`): Json => ({
  name: "create_branch",
  revision: "r1",
  backend,
  description,
  inputSchema: { type: "object", properties: { branch: { type: "string" } }, required: ["branch"] },
});

function admitted(tools: unknown[], options: AdmitOptions = {}): AdmittedBundle {
  const r = ToolCatalog.admitBatch(tools, { backends, ...options });
  if (!r.ok) assert.fail(`expected admission, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

function refused(tools: unknown[], options: AdmitOptions = {}): CatalogError {
  const r = ToolCatalog.admitBatch(tools, { backends, ...options });
  if (r.ok) assert.fail("expected a refusal");
  return r.error;
}

const both = () => [createBranch("github"), createBranch("gitlab")];
const perBackend = { namespace: { github: "github", gitlab: "gitlab" } };

describe("two servers with the same tool name in one batch", () => {
  test("without a namespace the names collide (tool_duplicate)", () => {
    assert.equal(refused(both()).code, "tool_duplicate");
  });

  test("with one namespace per backend the batch admits: registry, provider tools, pins under the prefixed names", () => {
    const bundle = admitted(both(), perBackend);
    assert.deepEqual(bundle.accepted, ["github__create_branch", "gitlab__create_branch"]);
    assert.deepEqual(
      bundle.tools.map((t) => t.name),
      bundle.accepted,
    );
    assert.deepEqual(Object.keys(bundle.pins), bundle.accepted);
    const tool = bundle.registry.get("gitlab__create_branch");
    assert.deepEqual(
      [tool?.name, tool?.serverName, tool?.backend],
      ["gitlab__create_branch", "create_branch", "gitlab"],
    );
    // The pin is of what the host reviewed: the provider tool, with its prefixed name, and the backend it runs on.
    assert.equal(
      bundle.pins["github__create_branch"],
      ToolCatalog.canonical({ ...bundle.tools[0], backend: "github" }),
    );
    assert.match(bundle.pins["github__create_branch"] ?? "", /"name":"github__create_branch"/);
  });

  test("dispatch gets the prefixed name the call used and the server's own name to call it with", async () => {
    const authority = { grants: { gitlab__create_branch: { protected: false } } };
    const bundle = admitted(both(), { ...perBackend, authority });
    const seen: unknown[] = [];
    const host = {
      dispatch: (ctx: { name: string; serverName: string; tool: { backend?: string }; grant: unknown }) => {
        seen.push([ctx.name, ctx.serverName, ctx.tool.backend, ctx.grant]);
        return "ok";
      },
    };
    assert.ok((await Execution.invoke(bundle, { name: "gitlab__create_branch", arguments: { branch: "x" } }, host)).ok);
    assert.deepEqual(seen, [["gitlab__create_branch", "create_branch", "gitlab", { protected: false }]]);
    const ungranted = await Execution.invoke(
      bundle,
      { name: "github__create_branch", arguments: { branch: "x" } },
      host,
    );
    assert.equal(ungranted.ok ? "" : ungranted.error.code, "grant_missing");
    const unprefixed = await Execution.invoke(bundle, { name: "create_branch", arguments: { branch: "x" } }, host);
    assert.equal(unprefixed.ok ? "" : unprefixed.error.code, "tool_unknown");
  });

  test("grants and pins are keyed by the prefixed name: a grant under the server's name is unknown", () => {
    const e = refused(both(), { ...perBackend, authority: { grants: { create_branch: {} } } });
    assert.equal(e.code, "grant_unknown_tool");
    const pins = admitted(both(), perBackend).pins;
    const changed = [createBranch("github"), createBranch("gitlab", "Creates a branch; also pushes to a mirror.")];
    const r = refused(changed, { ...perBackend, pins });
    assert.deepEqual([r.code, r.tool?.name, r.fields], ["tool_changed", "gitlab__create_branch", ["/description"]]);
  });

  test("a backend without an entry is not prefixed; an entry for an unknown backend is options_invalid", () => {
    const bundle = admitted(both(), { namespace: { gitlab: "gl" } });
    assert.deepEqual(bundle.accepted, ["create_branch", "gl__create_branch"]);
    assert.equal(refused(both(), { namespace: { gitlub: "gl" } }).code, "options_invalid");
  });
});

describe("one server's catalog under a namespace", () => {
  test("a string prefixes every tool; the separator is an option", () => {
    assert.deepEqual(admitted([createBranch("github")], { namespace: "gh" }).accepted, ["gh__create_branch"]);
    assert.deepEqual(admitted([createBranch("github")], { namespace: "gh", namespaceSeparator: "." }).accepted, [
      "gh.create_branch",
    ]);
  });

  test("prefix and separator follow the MCP tool-name rules, checked fail closed", () => {
    for (const options of [
      { namespace: "git hub" },
      { namespace: "" },
      { namespace: "x".repeat(128) },
      { namespace: 5 },
      { namespace: { github: "a/b" } },
      { namespace: "gh", namespaceSeparator: "::" },
      { namespace: "gh", namespaceSeparator: "" },
      { maxToolNameLength: 0 },
      { maxToolNameLength: 129 },
      { maxToolNameLength: 1.5 },
    ]) {
      assert.equal(refused([], options as never).code, "options_invalid", JSON.stringify(options));
    }
  });

  test("a prefixed name over 128 characters, or over the host's maxToolNameLength, is tool_name_invalid", () => {
    const fits = { ...createBranch("github"), name: "n".repeat(120) };
    assert.equal(admitted([fits], { namespace: "github" }).accepted[0]?.length, 128);
    const long = { ...createBranch("github"), name: "n".repeat(121) };
    assert.ok(admitted([long]).accepted.length === 1);
    const e = refused([long], { namespace: "github" });
    assert.deepEqual([e.code, e.tool?.name.length], ["tool_name_invalid", 129]);
    assert.match(e.message, /maxToolNameLength/);
    assert.equal(
      refused([createBranch("github")], { namespace: "github", maxToolNameLength: 20 }).code,
      "tool_name_invalid",
    );
    assert.ok(admitted([createBranch("github")], { namespace: "github", maxToolNameLength: 21 }).accepted.length === 1);
    assert.equal(refused([createBranch("github")], { maxToolNameLength: 12 }).code, "tool_name_invalid");
  });

  test("a server name that is not an MCP name is refused as such, never rescued by the prefix", () => {
    const e = refused([{ ...createBranch("github"), name: "create branch" }], { namespace: "gh" });
    assert.equal(e.code, "tool_name_invalid");
    assert.match(e.message, /"create branch"/);
  });

  test("names that collide only after prefixing are duplicates", () => {
    const tools = [
      { ...createBranch("github"), name: "b__c" },
      { ...createBranch("gitlab"), name: "c" },
    ];
    assert.equal(refused(tools, { namespace: { github: "a", gitlab: "a__b" } }).code, "tool_duplicate");
  });
});

describe("a conversation across two servers", () => {
  test("its updates keep and narrow grants, and review changes, under the prefixed names", () => {
    const authority = { grants: { github__create_branch: "g", gitlab__create_branch: "l" } };
    const conversation = Conversation.start({ tools: both(), backends, authority, ...perBackend });
    const onlyGitlab = conversation.updateCatalog([createBranch("gitlab")]);
    assert.ok(onlyGitlab.ok, "a server that removed a granted tool does not block the update");
    assert.deepEqual(
      [onlyGitlab.removed, conversation.current.authority],
      [["github__create_branch"], { grants: { gitlab__create_branch: "l" } }],
    );
    const changed = conversation.updateCatalog([createBranch("gitlab", "Creates a branch, then force-pushes.")]);
    assert.ok(changed.ok);
    assert.deepEqual(changed.changed, [{ name: "gitlab__create_branch", fields: ["/description"] }]);
    assert.ok(conversation.approve(["gitlab__create_branch"]).ok);
    assert.deepEqual(conversation.current.accepted, ["gitlab__create_branch"], "admitted again, prefixed once");
    assert.deepEqual(conversation.current.authority, { grants: { gitlab__create_branch: "l" } });
    const restored = Conversation.restore(conversation.checkpoint(), {
      tools: [createBranch("gitlab", "Creates a branch, then force-pushes.")],
      backends,
      ...perBackend,
    });
    assert.ok(restored.ok);
    assert.deepEqual(restored.value.current.accepted, ["gitlab__create_branch"]);
  });
});

describe("applyNamespace", () => {
  const naming = { prefixes: new Map([["github", "gh"]]), separator: "__", maxLength: 128 };
  test("returns a new descriptor under the listed name and leaves the one given as it was", () => {
    const tool = createBranch("github");
    const listed = applyNamespace(tool, naming);
    assert.equal(listed.serverName, "create_branch");
    assert.equal(listed.tool["name"], "gh__create_branch");
    assert.notEqual(listed.tool, tool);
    assert.equal(tool["name"], "create_branch");
    assert.deepEqual(Object.keys(listed.tool), Object.keys(tool));
  });
  test("a tool no prefix applies to, or whose name breaks the rules, is returned as it is", () => {
    const unprefixed = createBranch("gitlab");
    assert.deepEqual(applyNamespace(unprefixed, naming), { tool: unprefixed, serverName: "create_branch" });
    const badName = { ...createBranch("github"), name: "bad name" };
    assert.deepEqual(applyNamespace(badName, naming), { tool: badName, serverName: "bad name" });
    assert.equal(applyNamespace({ name: 1 }, naming).serverName, undefined);
  });
});
