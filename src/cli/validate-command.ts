/**
 * `backplane-schema validate <schema.json|-> <instance.json|-…>`: compiles the schema once and checks each
 * instance. Quiet on success; an invalid instance prints `<file>: invalid` and one line per error. With
 * `--output <format>`, every instance prints `<file>: valid|invalid` and (except for flag) the output unit as JSON.
 */

import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  OutputSchema,
  type BackplaneError,
  type FlagOutput,
  type OutputFormat,
  type OutputUnit,
  type ValidationOutput,
  type Validator,
} from "../index.js";
import { CliError, describeError, ExitCode, oneLine, parseArgs } from "./args.js";
import {
  BOUNDARY_ARGS,
  draft07Of,
  formatAssertionOf,
  formatsOf,
  legacyDialectsOf,
  limitsOf,
  maxInputBytesOf,
} from "./boundary-options.js";
import { isObject } from "../engine/json/json.js";
import { hasScheme } from "../engine/json/uri.js";
import { OUTPUT_FORMATS } from "../engine/output/output.js";
import { checkStdinOnce, inputName, readJson, STDIN } from "./files.js";
import { word } from "./terminal-text.js";

const FORMATS: readonly OutputFormat[] = OUTPUT_FORMATS;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Exit code: 0 all valid, 1 any invalid; throws `CliError` for 2 (usage, input) and 3 (execution failure). */
export async function validateCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    flags: ["--content-assertion", ...BOUNDARY_ARGS.flags],
    options: ["--output", "--registry", ...BOUNDARY_ARGS.options],
    repeatable: BOUNDARY_ARGS.repeatable,
  });
  const [schemaPath, ...instancePaths] = args.positionals;
  if (schemaPath === undefined) throw new CliError("validate needs a schema file and at least one instance file");
  if (instancePaths.length === 0) throw new CliError("validate needs at least one instance file after the schema");
  checkStdinOnce(args.positionals);
  const output = args.options.get("--output") as OutputFormat | undefined;
  if (output !== undefined && !FORMATS.includes(output))
    throw new CliError(`--output must be one of ${FORMATS.join(", ")} (got "${output}")`);
  const limits = limitsOf(args);
  const draft07 = draft07Of(args);
  // As the engine (`compile`): format is an annotation unless --format-assertion.
  const formatAssertion = formatAssertionOf(args);
  const legacyDialects = legacyDialectsOf(args);
  const formats = await formatsOf(args);
  const maxBytes = maxInputBytesOf(args);

  const registryDir = args.options.get("--registry");
  const schemaRegistry = registryDir !== undefined ? await loadRegistry(registryDir, maxBytes) : undefined;
  const schema = await readJson(schemaPath, "schema", maxBytes);
  const instances: { name: string; value: unknown }[] = [];
  for (const path of instancePaths)
    instances.push({ name: inputName(path), value: await readJson(path, "instance", maxBytes) });

  // OutputSchema compiles any root, as `compile` does, and owns the library's exact translation of older dialects.
  const compiled = OutputSchema.validateSchema(schema, {
    // A schema read from stdin resolves relative references against the current directory.
    baseUri: pathToFileURL(schemaPath === STDIN ? process.cwd() + "/" : resolve(schemaPath)).href,
    formatAssertion,
    contentAssertion: args.flags.has("--content-assertion"),
    strictSchema: args.flags.has("--strict-schema"),
    legacyDialects,
    ...(draft07 !== undefined ? { draft07 } : {}),
    ...(formats !== undefined ? { formats } : {}),
    ...(schemaRegistry !== undefined ? { schemaRegistry } : {}),
    ...(limits !== undefined ? { limits } : {}),
  });
  if (!compiled.ok) {
    const e = compiled.error;
    throw new CliError(`schema ${inputName(schemaPath)} does not compile: ${describeError(e)}`, exitCodeOf(e));
  }
  const { upgraded } = compiled.value;
  if (upgraded !== undefined) {
    const declared = /^\$schema (\S+) →/.exec(upgraded.find((c) => c.rule === "schema-dialect")?.message ?? "");
    io.err(
      `backplane-schema: schema ${inputName(schemaPath)} declares ${declared?.[1] ?? "an older dialect"}; ` +
        `translated to 2020-12 with ${upgraded.length} change(s):\n` +
        upgraded.map((c) => `  ${located(c.pointer)}: ${c.rule}: ${oneLine(c.message)}\n`).join(""),
    );
  }
  return validateAll(compiled.value.validator, instances, output, io);
}

function validateAll(
  validator: Validator,
  instances: readonly { name: string; value: unknown }[],
  output: OutputFormat | undefined,
  io: Io,
): number {
  let allValid = true;
  for (const { name, value } of instances) {
    let unit: ValidationOutput | FlagOutput;
    try {
      unit = validator.validate(value, { output: output ?? "basic" });
    } catch (e) {
      // No verdict: a limit was hit or the validator itself failed (docs/reference/errors.md).
      throw new CliError(`validating ${name} failed: ${describeError(e)}`, ExitCode.executionFailure);
    }
    allValid &&= unit.valid;
    if (output !== undefined) {
      io.out(`${name}: ${unit.valid ? "valid" : "invalid"}\n`);
      if (output !== "flag") io.out(indent(JSON.stringify(unit, null, 2)) + "\n");
    } else if (!unit.valid) {
      // Without --output the format is basic, whose invalid outputs list their errors.
      io.out(`${name}: invalid\n${errorLines((unit as ValidationOutput).errors ?? [])}`);
    }
  }
  return allValid ? ExitCode.ok : ExitCode.invalid;
}

/** One line per error of a basic output unit: where in the instance, what, and which keyword said so. */
function errorLines(errors: readonly OutputUnit[]): string {
  return errors
    .filter((e) => e.error !== undefined)
    .map((e) => `  ${located(e.instanceLocation)}: ${oneLine(e.error!)} (at ${located(e.keywordLocation)})\n`)
    .join("");
}

/** A pointer into the instance or schema as one word of a line ("(root)" for ""): its keys are the file's. */
function located(pointer: string): string {
  return pointer === "" ? "(root)" : word(pointer);
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => "  " + line)
    .join("\n");
}

/** Exit 3 for an `execution_failure` (a limit, a failing validator), else 2. */
function exitCodeOf(e: BackplaneError): number {
  return e.class === "execution_failure" ? ExitCode.executionFailure : ExitCode.usage;
}

/**
 * Every `*.json` below `dir` (each under the input cap), keyed by its `$id`, or by the `file://` URL of its absolute
 * path without one.
 */
async function loadRegistry(dir: string, maxBytes: number): Promise<Map<string, unknown>> {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new CliError(`cannot read registry directory ${dir}: no such directory`);
  }
  if (!isDir) throw new CliError(`registry ${dir} is not a directory`);
  const registry = new Map<string, unknown>();
  const origin = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      throw new CliError(`cannot read registry directory ${d}`);
    }
    for (const name of names) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        await walk(path);
        continue;
      }
      if (!name.endsWith(".json")) continue;
      const schema = await readJson(path, "registry schema", maxBytes);
      let uri = pathToFileURL(resolve(path)).href;
      if (isObject(schema) && Object.hasOwn(schema, "$id")) {
        const id = schema["$id"];
        if (typeof id !== "string" || id === "")
          throw new CliError(`registry schema ${path} has a $id that is not a non-empty string`);
        // A relative $id is resolved against the file's own URL, as its retrieval URI.
        const absolute = hasScheme(id) ? id : new URL(id, uri).href;
        uri = absolute.endsWith("#") ? absolute.slice(0, -1) : absolute;
      }
      const previous = origin.get(uri);
      if (previous !== undefined) throw new CliError(`registry schemas ${previous} and ${path} both claim ${uri}`);
      origin.set(uri, path);
      registry.set(uri, schema);
    }
  };
  await walk(dir);
  return registry;
}
