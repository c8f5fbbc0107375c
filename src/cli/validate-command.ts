/**
 * `backplane-schema validate <schema.json> <instance.json…>`: compiles the schema once and prints,
 * per instance, `<file>: valid|invalid` followed (except for flag output) by the output unit as JSON.
 */

import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { compile, SchemaError, type OutputFormat, type Validator } from "../index.js";
import { CliError, oneLine, parseArgs } from "./args.js";
import { isPlainObject, readJson } from "./files.js";

const FORMATS: readonly OutputFormat[] = ["flag", "basic", "detailed", "verbose"];

export interface Io {
  out: (text: string) => void;
}

/** Exit code: 0 all valid, 1 any invalid; throws `CliError` for exit 2. */
export function validateCommand(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv, {
    flags: ["--format-assertion", "--content-assertion"],
    options: ["--output", "--registry"],
  });
  const [schemaPath, ...instancePaths] = args.positionals;
  if (schemaPath === undefined) throw new CliError("validate needs a schema file and at least one instance file");
  if (instancePaths.length === 0) throw new CliError("validate needs at least one instance file after the schema");
  const output = (args.options.get("--output") ?? "basic") as OutputFormat;
  if (!FORMATS.includes(output)) throw new CliError(`--output must be one of ${FORMATS.join(", ")} (got "${output}")`);

  const registryDir = args.options.get("--registry");
  const schemaRegistry = registryDir !== undefined ? loadRegistry(registryDir) : undefined;
  const schema = readJson(schemaPath, "schema");
  const instances = instancePaths.map((path) => ({ path, value: readJson(path, "instance") }));

  let validator: Validator;
  try {
    validator = compile(schema, {
      baseUri: pathToFileURL(resolve(schemaPath)).href,
      formatAssertion: args.flags.has("--format-assertion"),
      contentAssertion: args.flags.has("--content-assertion"),
      ...(schemaRegistry !== undefined ? { schemaRegistry } : {}),
    });
  } catch (e) {
    throw new CliError(`schema ${schemaPath} does not compile: ${describeError(e)}`);
  }

  let allValid = true;
  for (const { path, value } of instances) {
    let unit;
    try {
      unit = validator.validate(value, { output });
    } catch (e) {
      throw new CliError(`validating ${path} failed: ${describeError(e)}`);
    }
    allValid &&= unit.valid;
    io.out(`${path}: ${unit.valid ? "valid" : "invalid"}\n`);
    if (output !== "flag") io.out(indent(JSON.stringify(unit, null, 2)) + "\n");
  }
  return allValid ? 0 : 1;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => "  " + line)
    .join("\n");
}

export function describeError(e: unknown): string {
  if (e instanceof SchemaError) {
    const where = e.schemaPointer !== undefined ? ` (at schema "${e.schemaPointer}")` : "";
    return oneLine(`${e.class}/${e.code}: ${e.message}${where}`);
  }
  return oneLine(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
}

/** Every `*.json` below `dir`, keyed by its `$id`, or by the `file://` URL of its absolute path without one. */
export function loadRegistry(dir: string): Map<string, unknown> {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new CliError(`cannot read registry directory ${dir}: no such directory`);
  }
  if (!isDir) throw new CliError(`registry ${dir} is not a directory`);
  const registry = new Map<string, unknown>();
  const origin = new Map<string, string>();
  const walk = (d: string): void => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      throw new CliError(`cannot read registry directory ${d}`);
    }
    for (const name of names) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      if (!name.endsWith(".json")) continue;
      const schema = readJson(path, "registry schema");
      let uri = pathToFileURL(resolve(path)).href;
      if (isPlainObject(schema) && Object.hasOwn(schema, "$id")) {
        const id = schema["$id"];
        if (typeof id !== "string" || id === "")
          throw new CliError(`registry schema ${path} has a $id that is not a non-empty string`);
        // A relative $id is resolved against the file's own URL, as its retrieval URI.
        const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(id) ? id : new URL(id, uri).href;
        uri = absolute.endsWith("#") ? absolute.slice(0, -1) : absolute;
      }
      const previous = origin.get(uri);
      if (previous !== undefined) throw new CliError(`registry schemas ${previous} and ${path} both claim ${uri}`);
      origin.set(uri, path);
      registry.set(uri, schema);
    }
  };
  walk(dir);
  return registry;
}
