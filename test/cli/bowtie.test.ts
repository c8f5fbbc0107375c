/**
 * `backplane-schema bowtie` driven as Bowtie drives a harness: one process, pipelined IHOP v1
 * requests, every response validated against the protocol's own schemas with our engine.
 */

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, test } from "node:test";
import { compile, type Validator } from "../../src/index.js";
import { jsonFiles, locateSuite, remotes } from "../suite/locate.js";
import { repoRoot, runCli } from "./helpers.js";

const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const protocolDir = resolve(repoRoot, "..", "shared", "bowtie-protocol");
const skip = existsSync(join(protocolDir, "io", "v1.json"))
  ? false
  : `the Bowtie protocol schemas are not at ${protocolDir}; cannot check responses`;

/** Every protocol schema, registered by its `$id`. */
function protocolRegistry(): Map<string, unknown> {
  const registry = new Map<string, unknown>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json")) {
        const schema = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
        if (typeof schema["$id"] === "string") registry.set(schema["$id"], schema);
      }
    }
  };
  walk(protocolDir);
  return registry;
}

interface Protocol {
  command: Validator;
  startResponse: Validator;
  dialectResponse: Validator;
  runResponse: Validator;
  errored: Validator;
}

let protocolCache: Protocol | undefined;
function protocol(): Protocol {
  if (protocolCache !== undefined) return protocolCache;
  const schemaRegistry = protocolRegistry();
  const at = (ref: string): Validator => compile({ $ref: ref }, { schemaRegistry, formatAssertion: true });
  protocolCache = {
    command: at("tag:bowtie.report,2023:ihop#/$defs/command"),
    startResponse: at("tag:bowtie.report,2023:ihop:command:start#response"),
    dialectResponse: at("tag:bowtie.report,2023:ihop:command:dialect#response"),
    runResponse: at("tag:bowtie.report,2023:ihop:command:run#response"),
    errored: at("tag:bowtie.report,2023:ihop:command:run#errored"),
  };
  return protocolCache;
}

function assertConforms(validator: Validator, value: unknown, what: string): void {
  if (validator.isValid(value)) return;
  const errors = (validator.validate(value, { output: "basic" }).errors ?? []).map(
    (e) => `${e.instanceLocation}: ${e.error ?? e.keywordLocation}`,
  );
  assert.fail(
    `${what} does not conform to the protocol: ${JSON.stringify(value).slice(0, 300)}\n${errors.slice(0, 5).join("\n")}`,
  );
}

/** Sends every request on one stdin (pipelined), returns the parsed response lines. */
function drive(lines: readonly string[]): {
  status: number | null;
  responses: Record<string, unknown>[];
  stderr: string;
} {
  const run = runCli(["bowtie"], { input: lines.map((l) => l + "\n").join("") });
  const responses = run.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: run.status, responses, stderr: run.stderr };
}

const START = JSON.stringify({ cmd: "start", version: 1 });
const STOP = JSON.stringify({ cmd: "stop" });

interface SuiteCase {
  description: string;
  comment?: string;
  schema: unknown;
  tests: { description: string; comment?: string; data: unknown; valid: boolean }[];
}

describe("bowtie harness", { skip }, () => {
  test("the required 2020-12 suite through IHOP: every response conforms and every verdict matches", () => {
    const { command, startResponse, dialectResponse, runResponse } = protocol();
    const suite = locateSuite();
    const registry = Object.fromEntries(remotes(suite));
    const dir = join(suite, "tests", "draft2020-12");
    const cases: { name: string; suiteCase: SuiteCase }[] = [];
    for (const file of jsonFiles(dir, false)) {
      for (const suiteCase of JSON.parse(readFileSync(join(dir, file), "utf8")) as SuiteCase[])
        cases.push({ name: `${file}: ${suiteCase.description}`, suiteCase });
    }
    const requests: unknown[] = [
      { cmd: "start", version: 1 },
      { cmd: "dialect", dialect: DIALECT },
    ];
    cases.forEach(({ suiteCase }, i) => {
      const tests = suiteCase.tests.map((t) => ({
        description: t.description,
        instance: t.data,
        valid: t.valid,
        ...(t.comment !== undefined ? { comment: t.comment } : {}),
      }));
      const sent: Record<string, unknown> = {
        description: suiteCase.description,
        schema: suiteCase.schema,
        registry,
        tests,
      };
      if (suiteCase.comment !== undefined) sent["comment"] = suiteCase.comment;
      requests.push({ cmd: "run", seq: i % 2 === 0 ? i : { case: i }, output: "flag", case: sent });
    });
    requests.push({ cmd: "stop" });
    for (const request of requests) assertConforms(command, request, "request (a driver bug)");

    const { status, responses, stderr } = drive(requests.map((r) => JSON.stringify(r)));
    assert.equal(status, 0, stderr);
    assert.equal(stderr, "");
    assert.equal(responses.length, requests.length - 1, "one response per request except stop");

    const [started, dialect, ...runs] = responses;
    assertConforms(startResponse, started, "start response");
    const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
    const implementation = started!["implementation"] as Record<string, unknown>;
    assert.equal(started!["version"], 1);
    assert.equal(implementation["language"], "typescript");
    assert.equal(implementation["name"], "backplane-agent-runtime");
    assert.equal(implementation["version"], pkg.version);
    assert.deepEqual(implementation["dialects"], [DIALECT]);
    assertConforms(dialectResponse, dialect, "dialect response");
    assert.deepEqual(dialect, { ok: true });

    const failures: string[] = [];
    let checked = 0;
    runs.forEach((response, i) => {
      const { name, suiteCase } = cases[i]!;
      assertConforms(runResponse, response, `run response for ${name}`);
      assert.deepEqual(response["seq"], i % 2 === 0 ? i : { case: i }, "seq is echoed unchanged, in order");
      if (response["errored"] === true) {
        failures.push(`${name}: errored: ${JSON.stringify(response["context"])}`);
        return;
      }
      const results = response["results"] as { valid: boolean }[];
      assert.equal(results.length, suiteCase.tests.length, `${name}: one result per test`);
      suiteCase.tests.forEach((t, j) => {
        checked++;
        if (results[j]!.valid !== t.valid)
          failures.push(`${name} / ${t.description}: expected valid=${t.valid}, got ${results[j]!.valid}`);
      });
    });
    assert.deepEqual(failures, [], `${failures.length} suite verdicts differ:\n${failures.slice(0, 20).join("\n")}`);
    assert.ok(checked > 1000, `only ${checked} tests were checked`);
  });

  test("malformed lines, unknown commands and failing cases get error responses; the harness carries on", () => {
    const { errored, runResponse, dialectResponse } = protocol();
    const lines = [
      START,
      "this is not JSON",
      "[1, 2, 3]",
      JSON.stringify({ version: 1 }),
      JSON.stringify({ cmd: "frobnicate", seq: 7 }),
      JSON.stringify({ cmd: "dialect", dialect: "http://json-schema.org/draft-07/schema#" }),
      JSON.stringify({
        cmd: "run",
        seq: "a",
        output: "flag",
        case: { description: "bad schema", schema: { type: 12 }, tests: [{ description: "t", instance: 1 }] },
      }),
      JSON.stringify({
        cmd: "run",
        seq: null,
        output: "flag",
        case: {
          description: "missing ref",
          schema: { $ref: "http://localhost:1234/nope.json" },
          tests: [{ description: "t", instance: 1 }],
        },
      }),
      JSON.stringify({
        cmd: "run",
        seq: [1],
        output: "flag",
        case: {
          description: "draft-07",
          schema: { $schema: "http://json-schema.org/draft-07/schema#" },
          tests: [{ description: "t", instance: 1 }],
        },
      }),
      JSON.stringify({ cmd: "run", seq: 9, output: "flag" }),
      JSON.stringify({
        cmd: "run",
        seq: 10,
        output: "tree",
        case: { description: "x", schema: {}, tests: [{ description: "t", instance: 1 }] },
      }),
      JSON.stringify({
        cmd: "run",
        seq: 11,
        output: "flag",
        case: {
          description: "limit",
          schema: { items: { $ref: "#" } },
          tests: [{ description: "deep", instance: "DEEP" }],
        },
      }).replace('"DEEP"', nested(100_000)),
      JSON.stringify({
        cmd: "run",
        seq: { still: "alive" },
        output: "flag",
        case: {
          description: "ok",
          schema: { const: 37 },
          registry: null,
          tests: [
            { description: "a", instance: 37 },
            { description: "b", instance: "37" },
          ],
        },
      }),
      STOP,
      START, // after stop: ignored
    ];
    const { status, responses, stderr } = drive(lines);
    assert.equal(status, 0, stderr);
    assert.equal(stderr, "");
    assert.equal(responses.length, lines.length - 2, "every request is answered except stop and what follows it");
    const [
      ,
      notJson,
      notObject,
      noCmd,
      unknown,
      draft07Dialect,
      badSchema,
      missingRef,
      draft07,
      noCase,
      badOutput,
      deep,
      alive,
    ] = responses;
    for (const response of [
      notJson,
      notObject,
      noCmd,
      unknown,
      badSchema,
      missingRef,
      draft07,
      noCase,
      badOutput,
      deep,
    ]) {
      assertConforms(errored, response, "error response");
      assert.equal(response!["errored"], true);
      assert.equal(typeof (response!["context"] as Record<string, unknown>)["message"], "string");
    }
    assert.equal(Object.hasOwn(notJson!, "seq"), false);
    assert.equal(unknown!["seq"], 7);
    assert.match(String((unknown!["context"] as Record<string, unknown>)["message"]), /unknown command "frobnicate"/);
    assertConforms(dialectResponse, draft07Dialect, "dialect response");
    assert.deepEqual(draft07Dialect, { ok: false });
    for (const [response, seq, pattern] of [
      [badSchema, "a", /^validation\/schema_invalid/],
      [missingRef, null, /^validation\/ref_unresolved/],
      [draft07, [1], /^unsupported_capability\//],
      [deep, 11, /^execution_failure\/limit_exceeded/],
    ] as const) {
      assertConforms(runResponse, response, "run error response");
      assert.deepEqual(response!["seq"], seq);
      assert.match(String((response!["context"] as Record<string, unknown>)["message"]), pattern);
      assert.equal(
        Object.hasOwn(response!["context"] as object, "traceback"),
        false,
        "engine errors carry no traceback",
      );
    }
    assert.equal(noCase!["seq"], 9);
    assert.equal(badOutput!["seq"], 10);
    assertConforms(runResponse, alive, "run response");
    assert.deepEqual(alive, { seq: { still: "alive" }, results: [{ valid: true }, { valid: false }] });
  });

  test("end of input without stop exits 0", () => {
    const { status, responses } = drive([START]);
    assert.equal(status, 0);
    assert.equal(responses.length, 1);
  });

  test("annotations output answers the official annotation suite (cases for 2020-12)", (t) => {
    const { runResponse } = protocol();
    const dir = join(locateSuite(), "annotations", "tests");
    if (!existsSync(dir)) {
      t.skip(`no annotation suite at ${dir}`);
      return;
    }
    interface AnnotationCase {
      description: string;
      compatibility?: string;
      schema: unknown;
      externalSchemas?: Record<string, unknown>;
      tests: {
        instance: unknown;
        assertions: { location: string; keyword: string; expected: Record<string, unknown> }[];
      }[];
    }
    const cases: { name: string; c: AnnotationCase }[] = [];
    for (const file of jsonFiles(dir, false)) {
      const { suite } = JSON.parse(readFileSync(join(dir, file), "utf8")) as { suite: AnnotationCase[] };
      for (const c of suite) if (appliesTo2020(c.compatibility)) cases.push({ name: `${file}: ${c.description}`, c });
    }
    const lines = [
      START,
      ...cases.map(({ c }, i) =>
        JSON.stringify({
          cmd: "run",
          seq: i,
          output: "annotations",
          case: {
            description: c.description,
            schema: c.schema,
            registry: c.externalSchemas ?? {},
            tests: c.tests.map((x, j) => ({ description: `test ${j}`, instance: x.instance })),
          },
        }),
      ),
      STOP,
    ];
    const { status, responses, stderr } = drive(lines);
    assert.equal(status, 0, stderr);
    assert.equal(responses.length, cases.length + 1);
    const failures: string[] = [];
    let assertions = 0;
    cases.forEach(({ name, c }, i) => {
      const response = responses[i + 1]!;
      assertConforms(runResponse, response, `annotations response for ${name}`);
      assert.equal(response["seq"], i);
      if (response["errored"] === true) {
        failures.push(`${name}: errored: ${JSON.stringify(response["context"])}`);
        return;
      }
      const results = response["results"] as {
        annotations: { keyword: string; instanceLocation: string; keywordLocation: string; annotation: unknown }[];
      }[];
      c.tests.forEach((test, j) => {
        for (const a of test.assertions) {
          assertions++;
          // The suite keys annotations by the location of the schema holding the keyword.
          const got: Record<string, unknown> = {};
          for (const x of results[j]!.annotations) {
            if (x.keyword !== a.keyword || x.instanceLocation !== a.location) continue;
            assert.ok(x.keywordLocation.endsWith("/" + a.keyword), x.keywordLocation);
            got[x.keywordLocation.slice(0, -(a.keyword.length + 1)) || "#"] = x.annotation;
          }
          const expected = Object.fromEntries(Object.entries(a.expected).map(([k, v]) => [k === "#" ? "#" : k, v]));
          try {
            assert.deepEqual(got, expected);
          } catch {
            failures.push(
              `${name} / test ${j} / ${a.keyword} at "${a.location}": expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
            );
          }
        }
      });
    });
    assert.deepEqual(failures, [], failures.join("\n"));
    assert.ok(assertions > 50, `only ${assertions} annotation assertions were checked`);
  });
});

/** The JSON text of an array nested `depth` deep, beyond the default instance-depth limit. */
function nested(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** The annotation suite's `compatibility` (e.g. "7", "=2020", "<=2019", "6,<=2019") admits 2020-12. */
function appliesTo2020(compatibility: string | undefined): boolean {
  if (compatibility === undefined) return true;
  return compatibility.split(",").every((part) => {
    const p = part.trim();
    if (p.startsWith("<=")) return 2020 <= Number(p.slice(2));
    if (p.startsWith("=")) return Number(p.slice(1)) === 2020;
    return Number(p) <= 2020;
  });
}
