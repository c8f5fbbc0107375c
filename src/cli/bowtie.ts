/**
 * `backplane-schema bowtie`: a Bowtie test harness speaking IHOP v1 (one JSON request per line on
 * stdin, one JSON response per line on stdout). Commands: start, dialect, run, stop. A malformed
 * line or an unknown command gets an `errored` response and the harness carries on.
 */

import { createInterface } from "node:readline";
import { compile, SchemaError, type Annotation, type Validator } from "../index.js";
import { DEFAULT_BASE_URI } from "../engine/compile/compile-options.js";
import { errorMessage, isInstance } from "../engine/errors.js";
import { isObject } from "../engine/json/json.js";
import { escapeToken, pointerToFragment } from "../engine/json/pointer.js";
import { dialect2020_12 } from "../vocabularies/dialect-2020-12.js";
import { resolveUri, splitFragment } from "../engine/json/uri.js";
import { describeError, oneLine } from "./args.js";
import { packageInfo } from "./package-info.js";

const DIALECT_2020_12 = dialect2020_12.metaSchema;

type Json = unknown;
type Response = Record<string, Json>;

/** The harness state machine, independent of any stream: one request value in, one response (or none) out. */
class BowtieHarness {
  stopped = false;

  /** Handles one input line; returns the response line (without newline), or undefined when none is due. */
  handleLine(line: string): string | undefined {
    if (line.trim() === "") return undefined;
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (e) {
      return JSON.stringify(errored(undefined, `request is not valid JSON: ${oneLine(errorMessage(e))}`));
    }
    const response = this.handle(request);
    return response === undefined ? undefined : JSON.stringify(response);
  }

  handle(request: unknown): Response | undefined {
    if (!isObject(request)) return errored(undefined, "request is not a JSON object");
    const seq = Object.hasOwn(request, "seq") ? { value: request["seq"] } : undefined;
    const cmd = Object.hasOwn(request, "cmd") ? request["cmd"] : undefined;
    try {
      switch (cmd) {
        case "start":
          return this.start(request, seq);
        case "dialect":
          return { ok: isSupportedDialect(request["dialect"]) };
        case "run":
          return this.run(request, seq);
        case "stop":
          this.stopped = true;
          return undefined;
        default:
          return errored(seq, cmd === undefined ? 'request has no "cmd"' : `unknown command ${JSON.stringify(cmd)}`);
      }
    } catch (e) {
      // A harness bug, never a crash: report it on the request and carry on.
      return errored(seq, `internal error: ${oneLine(errorMessage(e))}`, stackOf(e));
    }
  }

  private start(request: Record<string, unknown>, seq: { value: Json } | undefined): Response {
    if (request["version"] !== 1)
      return errored(
        seq,
        `unsupported IHOP version ${JSON.stringify(request["version"]) ?? "undefined"}; this harness speaks version 1`,
      );
    const info = packageInfo();
    return {
      version: 1,
      implementation: {
        language: "typescript",
        name: info.name,
        version: info.version,
        homepage: info.homepage,
        issues: info.issues,
        source: info.source,
        dialects: [DIALECT_2020_12],
        os: process.platform,
        language_version: `node ${process.versions.node}`,
      },
    };
  }

  private run(request: Record<string, unknown>, seq: { value: Json } | undefined): Response {
    if (seq === undefined) return errored(seq, 'run request has no "seq"');
    const testCase = request["case"];
    if (!isObject(testCase) || !Object.hasOwn(testCase, "schema"))
      return errored(seq, 'run request has no "case" object with a "schema"');
    const tests = testCase["tests"];
    if (!Array.isArray(tests) || !tests.every((t) => isObject(t) && Object.hasOwn(t, "instance"))) {
      return errored(seq, 'run request\'s case has no "tests" array of objects with an "instance"');
    }
    const output = Object.hasOwn(request, "output") ? request["output"] : "flag";
    if (output !== "flag" && output !== "annotations")
      return errored(seq, `unsupported output format ${JSON.stringify(output)}`);
    const registryValue = Object.hasOwn(testCase, "registry") ? testCase["registry"] : undefined;
    if (registryValue !== undefined && registryValue !== null && !isObject(registryValue))
      return errored(seq, 'the case\'s "registry" is not an object');

    const schemaRegistry = new Map<string, unknown>();
    if (registryValue !== undefined && registryValue !== null) {
      for (const uri of Object.keys(registryValue)) schemaRegistry.set(uri, registryValue[uri]);
    }

    let validator: Validator;
    try {
      validator = compile(testCase["schema"], { schemaRegistry });
    } catch (e) {
      return errored(seq, describeError(e), isInstance(e, SchemaError) ? undefined : stackOf(e));
    }

    const locations = output === "annotations" ? resourceLocations(testCase["schema"]) : undefined;
    const results: Response[] = [];
    for (const test of tests as Record<string, unknown>[]) {
      const instance = test["instance"];
      try {
        const valid = validator.validate(instance, { output: "flag" }).valid;
        if (locations === undefined) {
          results.push({ valid });
        } else {
          const annotations = valid ? validator.annotations(instance).map((a) => bowtieAnnotation(a, locations)) : [];
          results.push({ valid, annotations });
        }
      } catch (e) {
        return errored(seq, describeError(e), isInstance(e, SchemaError) ? undefined : stackOf(e));
      }
    }
    return { seq: seq.value, results };
  }
}

function isSupportedDialect(dialect: unknown): boolean {
  return dialect === DIALECT_2020_12 || dialect === DIALECT_2020_12 + "#";
}

function errored(seq: { value: Json } | undefined, message: string, traceback?: string): Response {
  const context: Response = { message };
  if (traceback !== undefined) context["traceback"] = traceback;
  return seq !== undefined ? { seq: seq.value, errored: true, context } : { errored: true, context };
}

/** The stack of an `Error`, or undefined; never throws. */
function stackOf(e: unknown): string | undefined {
  try {
    return isInstance(e, Error) && typeof e.stack === "string" ? e.stack : undefined;
  } catch {
    return undefined;
  }
}

/** Where subschemas sit (Core §9.2), as the dialect itself knows it. */
const POSITIONS = dialect2020_12.subschemaKeywords;

/**
 * Where each schema resource (by its absolute URI without fragment) sits in the case's root schema,
 * as a JSON Pointer, so annotation locations can be reported as fragments of the root document.
 */
function resourceLocations(schema: unknown): Map<string, string> {
  const locations = new Map<string, string>();
  const walk = (node: unknown, pointer: string, base: string): void => {
    if (!isObject(node)) return;
    if (Object.hasOwn(node, "$id") && typeof node["$id"] === "string") {
      base = splitFragment(resolveUri(base, node["$id"]))[0];
      if (!locations.has(base)) locations.set(base, pointer);
    }
    for (const key of Object.keys(node)) {
      const value = node[key];
      const at = pointer + "/" + escapeToken(key);
      const holds = POSITIONS.get(key);
      if (holds === "schema") walk(value, at, base);
      else if (holds === "map" && isObject(value))
        for (const k of Object.keys(value)) walk(value[k], at + "/" + escapeToken(k), base);
      else if (holds === "array" && Array.isArray(value)) value.forEach((v, i) => walk(v, at + "/" + i, base));
    }
  };
  locations.set(DEFAULT_BASE_URI, "");
  walk(schema, "", DEFAULT_BASE_URI);
  return locations;
}

/** An engine annotation in Bowtie's shape: the keyword's schema location as a root-document fragment. */
function bowtieAnnotation(a: Annotation, locations: ReadonlyMap<string, string>): Response {
  return {
    keyword: a.keyword,
    instanceLocation: a.instanceLocation,
    keywordLocation: schemaLocation(a.absoluteKeywordLocation, locations),
    annotation: a.value,
  };
}

function schemaLocation(absolute: string, locations: ReadonlyMap<string, string>): string {
  const [resource, fragment] = splitFragment(absolute);
  const prefix = locations.get(resource);
  if (prefix === undefined || (fragment !== "" && !fragment.startsWith("/"))) return absolute;
  return "#" + pointerToFragment(prefix) + fragment;
}

/** Runs the harness on stdin/stdout until `stop` or end of input. */
export function runBowtie(): Promise<number> {
  const harness = new BowtieHarness();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  return new Promise((resolvePromise) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolvePromise(0);
    };
    lines.on("line", (line) => {
      if (harness.stopped) return;
      const response = harness.handleLine(line);
      if (response !== undefined) process.stdout.write(response + "\n");
      if (harness.stopped) {
        lines.close();
        process.stdin.destroy();
        finish();
      }
    });
    lines.on("close", finish);
  });
}
