/**
 * Servers side by side (docs/guide/pins.md "Servers side by side"): an explicit `namespace` prefixes every
 * tool of one server's catalog with `<namespace><separator>` (`github__create_branch`), so tools of several
 * servers can share one batch. The prefix, the separator and the names they make are held to the MCP tool-name
 * rules (1–128 of `A–Z a–z 0–9 _ - .`) and to the host's `maxToolNameLength`. Nothing is prefixed implicitly.
 */

import { isObject } from "../../engine/json/json.js";
import { expecting, type OptionCheck, type OptionTable } from "../../engine/options.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import { isToolName } from "./tool-descriptor.js";

/**
 * The prefix of every tool of the batch (one server's catalog), or a map from backend id to the prefix of that
 * backend's tools (several servers in one batch; a backend without an entry is not prefixed).
 */
export type Namespace = string | Readonly<Record<string, string>> | ReadonlyMap<string, string>;

/** What the separator is when none is given. */
const DEFAULT_SEPARATOR = "__";
/** The MCP tool-name length limit. */
const MCP_MAX_LENGTH = 128;

const PART = "1–127 characters of A–Z a–z 0–9 _ - .";

function isPart(value: unknown): boolean {
  return typeof value === "string" && value.length < MCP_MAX_LENGTH && isToolName(value);
}

function namespaceProblem(value: unknown): string | undefined {
  if (typeof value === "string") return isPart(value) ? undefined : `must be ${PART}, got ${JSON.stringify(value)}`;
  const entries = value instanceof Map ? [...(value as Map<unknown, unknown>)] : undefined;
  if (entries === undefined && !isObject(value)) {
    return "must be a string, or an object or Map from backend id to a string";
  }
  for (const [backend, prefix] of entries ?? Object.entries(value as Record<string, unknown>)) {
    if (typeof backend !== "string") return "must have backend ids (strings) as keys";
    if (!isPart(prefix)) return `for backend ${JSON.stringify(backend)} must be ${PART}`;
  }
  return undefined;
}

/** The naming options of `admitBatch` and `Conversation.start`, checked fail closed. */
export const namespaceOptionChecks: OptionTable = new Map<string, OptionCheck>([
  ["namespace", namespaceProblem],
  ["namespaceSeparator", expecting(isPart, PART)],
  [
    "maxToolNameLength",
    expecting((v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MCP_MAX_LENGTH, "1 to 128"),
  ],
]);

/** The naming options of one batch, checked and read once. */
export interface Naming {
  /** The prefix of the batch, or each backend's; undefined when nothing is prefixed. */
  readonly prefixes: string | ReadonlyMap<string, string> | undefined;
  readonly separator: string;
  readonly maxLength: number;
}

/** The batch's naming, or the `options_invalid` of a namespace map that names a backend the batch does not allow. */
export function readNaming(
  options: { namespace?: Namespace; namespaceSeparator?: string; maxToolNameLength?: number },
  backends: ReadonlySet<string> | undefined,
): Result<Naming, CatalogError> {
  const { namespace, namespaceSeparator = DEFAULT_SEPARATOR, maxToolNameLength = MCP_MAX_LENGTH } = options;
  let prefixes: Naming["prefixes"];
  if (typeof namespace === "string" || namespace === undefined) prefixes = namespace;
  else {
    prefixes = namespace instanceof Map ? new Map(namespace) : new Map(Object.entries(namespace));
    // A prefix per backend is only as good as the backends: the batch must name them.
    if (backends === undefined)
      return namingInvalid('option "namespace" gives a prefix per backend: the batch needs "backends"');
    for (const backend of prefixes.keys()) {
      if (!backends.has(backend)) {
        return namingInvalid(`option "namespace" names backend ${JSON.stringify(backend)}, not in backends`);
      }
    }
  }
  return ok({ prefixes, separator: namespaceSeparator, maxLength: maxToolNameLength });
}

function namingInvalid(message: string): { ok: false; error: CatalogError } {
  return err(catalogError("validation", "options_invalid", message));
}

/** The name a tool is listed under: its server's name, prefixed when its backend has a namespace. */
export function listedName(naming: Naming, serverName: string, backend: unknown): string {
  const { prefixes } = naming;
  const prefix =
    typeof prefixes === "string" ? prefixes : typeof backend === "string" ? prefixes?.get(backend) : undefined;
  return prefix === undefined ? serverName : prefix + naming.separator + serverName;
}

/**
 * A descriptor as it is listed: a new descriptor with its namespace's prefix before its name (the one given when no
 * prefix applies), and its server's own name. A name that is not a valid MCP tool name is left as it is, for the
 * metadata check to refuse.
 */
export function applyNamespace(
  tool: Record<string, unknown>,
  naming: Naming,
): { tool: Record<string, unknown>; serverName: string | undefined } {
  const serverName = tool["name"];
  if (typeof serverName !== "string") return { tool, serverName: undefined };
  if (!isToolName(serverName)) return { tool, serverName };
  const name = listedName(naming, serverName, tool["backend"]);
  return { tool: name === serverName ? tool : { ...tool, name }, serverName };
}

/** A listed name longer than the host's `maxToolNameLength`, which may be below the MCP rules' 128. */
export function nameLengthError(tool: unknown, index: number, naming: Naming): CatalogError | undefined {
  if (!isObject(tool) || typeof tool["name"] !== "string" || tool["name"].length <= naming.maxLength) return undefined;
  const name = tool["name"];
  const revision = typeof tool["revision"] === "string" ? tool["revision"] : "";
  const message =
    `tool ${index} is listed as ${JSON.stringify(name)}, ${name.length} characters: ` +
    `over the limit of ${naming.maxLength} (maxToolNameLength)`;
  return catalogError("validation", "tool_name_invalid", message, { name, revision });
}
