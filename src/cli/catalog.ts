/** Tool catalog files for `admit` and the demo: a bare array of tool descriptors, or `{ backends?, tools, … }`. */

import { CliError } from "./args.js";
import { isObject } from "../engine/json/json.js";

export interface Catalog {
  tools: unknown[];
  /** The file's `backends`; without them, a tool's backend is not checked (as `admitBatch` without `backends`). */
  backends?: string[];
  /** The file's other fields (the demo's `calls` and `results`); empty for a bare array. */
  fields: Record<string, unknown>;
}

/** The catalog in a parsed file; `name` is how messages name the file. */
export function catalogOf(parsed: unknown, name: string): Catalog {
  let tools: unknown;
  let backends: unknown;
  let fields: Record<string, unknown> = {};
  if (Array.isArray(parsed)) {
    tools = parsed;
  } else if (isObject(parsed) && Object.hasOwn(parsed, "tools")) {
    fields = parsed;
    tools = parsed["tools"];
    if (Object.hasOwn(parsed, "backends")) backends = parsed["backends"];
  }
  if (!Array.isArray(tools))
    throw new CliError(
      `catalog ${name} is not a catalog: expected an array of tools or an object with a "tools" array`,
    );
  if (backends === undefined) return { tools, fields };
  if (!Array.isArray(backends) || !backends.every((b): b is string => typeof b === "string")) {
    throw new CliError(`catalog ${name} has a "backends" field that is not an array of strings`);
  }
  return { tools, backends, fields };
}
