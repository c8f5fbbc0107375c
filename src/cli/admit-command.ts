/**
 * `backplane-schema admit <catalog.json|-> | --mcp "<command> [args…]"`: admits a tool catalog, from a file or
 * listed live from a stdio MCP server, through `ToolCatalog.admitBatch` (strict, as the API, unless `--quarantine`)
 * and prints one row per tool; with `--pins <file>`, writes the pins of what it admitted or checks the batch against
 * them; with `--target <profile>`, checks the admitted tools for model providers (and `--emit` prints their
 * provider-ready tool lists as JSON).
 */

import { createHash } from "node:crypto";
import { canonicalJson, isPlainObject } from "../engine/json/json.js";
import { ToolCatalog, type AdmissionTarget, type AdmittedBundle, type HiddenTextPolicy } from "../index.js";
import { CliError, ExitCode, parseArgs } from "./args.js";
import { admissionExitCode, admissionReport, targetReport } from "./admission-report.js";
import {
  BOUNDARY_ARGS,
  draft07Of,
  formatAssertionOf,
  formatsOf,
  legacyDialectsOf,
  limitsOf,
  maxInputBytesOf,
} from "./boundary-options.js";
import { catalogOf } from "./catalog.js";
import { inputName, readJson } from "./files.js";
import { listMcpCatalog } from "./mcp-catalog.js";
import { gateFails, gateReport, pinsGate, readPinsFile, writePinsFile } from "./pins-file.js";
import type { Io } from "./validate-command.js";

export const DEFAULT_TIMEOUT_MS = 10_000;
/** The largest delay `setTimeout` honours. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const NAMESPACE = /^[A-Za-z0-9_.-]{1,127}$/;
const HIDDEN_TEXT: readonly HiddenTextPolicy[] = ["report", "refuse"];

/**
 * Exit code: 0 admitted (and every tool matching its pin), 1 refused or no tool admitted (with `--fail-on-quarantine`,
 * any tool quarantined), 3 refused on a limit, 4 a tool differs from its pin, is new or is no longer listed
 * (`--pins`); throws `CliError` for exit 2.
 */
export async function admitCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    flags: ["--strict", "--quarantine", "--fail-on-quarantine", "--widen", "--emit", ...BOUNDARY_ARGS.flags],
    options: [
      "--mcp",
      "--revision",
      "--backend",
      "--timeout-ms",
      "--pins",
      "--namespace",
      "--hidden-text",
      ...BOUNDARY_ARGS.options,
    ],
    repeatable: [...BOUNDARY_ARGS.repeatable, "--target", "--report-target"],
  });
  const namespace = args.options.get("--namespace");
  if (namespace !== undefined && !NAMESPACE.test(namespace))
    throw new CliError(`--namespace must be 1–127 characters of A–Z a–z 0–9 _ - . (got "${namespace}")`);
  const hiddenText = (args.options.get("--hidden-text") ?? "report") as HiddenTextPolicy;
  if (!HIDDEN_TEXT.includes(hiddenText))
    throw new CliError(`--hidden-text must be one of ${HIDDEN_TEXT.join(", ")} (got "${hiddenText}")`);
  const maxBytes = maxInputBytesOf(args);
  const pinsPath = args.options.get("--pins");
  const pins = pinsPath === undefined ? undefined : await readPinsFile(pinsPath, maxBytes);
  if (args.flags.has("--strict") && args.flags.has("--quarantine"))
    throw new CliError("--strict and --quarantine cannot both be given");
  const mode = args.flags.has("--quarantine") ? "quarantine" : "strict";
  const targets = targetsOf(args.lists, args.flags.has("--widen"));
  const emit = args.flags.has("--emit");
  if (targets === undefined && (emit || args.flags.has("--widen")))
    throw new CliError(`${emit ? "--emit" : "--widen"} needs at least one --target or --report-target`);
  const limits = limitsOf(args);
  const draft07 = draft07Of(args);
  // As the boundary: format is an annotation unless --format-assertion.
  const formatAssertion = formatAssertionOf(args);
  const legacyDialects = legacyDialectsOf(args);
  const formats = await formatsOf(args);
  const mcp = args.options.get("--mcp");
  if (mcp === undefined && args.options.has("--timeout-ms"))
    throw new CliError("--timeout-ms applies only to admit --mcp");
  if (mcp !== undefined && args.options.has("--backend"))
    throw new CliError("--backend applies only to a catalog file (with --mcp, the backend is the server's name)");
  if (mcp !== undefined && args.positionals.length > 0)
    throw new CliError("admit takes either a catalog file or --mcp, not both");
  if (mcp === undefined && args.positionals.length !== 1)
    throw new CliError("admit needs exactly one catalog file (or --mcp)");

  let tools: unknown[];
  let backends: string[] | undefined;
  let source: string;
  if (mcp !== undefined) {
    const revision = args.options.get("--revision");
    const listed = await listMcpCatalog(mcp, {
      timeoutMs: timeoutOf(args.options.get("--timeout-ms")),
      maxBytes,
      ...(revision !== undefined ? { revision } : {}),
    });
    ({ tools, source } = listed);
    backends = [listed.backend];
  } else {
    const path = args.positionals[0]!;
    source = inputName(path);
    ({ tools, backends } = catalogOf(await readJson(path, "catalog", maxBytes), source));
    const backend = args.options.get("--backend");
    tools = withFileDefaults(tools, args.options.get("--revision"), backend);
    if (backend !== undefined && !(backends ?? []).includes(backend)) backends = [...(backends ?? []), backend];
  }

  const result = ToolCatalog.admitBatch(tools, {
    mode,
    ...(backends === undefined ? {} : { backends }),
    ...(targets === undefined ? {} : { targets }),
    legacyDialects,
    ...(draft07 === undefined ? {} : { draft07 }),
    hiddenText,
    formatAssertion,
    strictSchema: args.flags.has("--strict-schema"),
    ...(formats !== undefined ? { formats } : {}),
    ...(limits !== undefined ? { limits } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    // Checking against pins, a new tool is held like a changed one: the gate is "nothing changed".
    ...(pins !== undefined ? { pins, unpinned: "hold" } : {}),
  });
  if (!result.ok && result.error.code === "options_invalid" && pinsPath !== undefined) {
    throw new CliError(`pins file ${pinsPath}: ${result.error.message}`);
  }
  if (!result.ok && result.error.code === "options_invalid" && targets !== undefined) {
    throw new CliError(
      result.error.message.replace('ToolCatalog.admitBatch option "targets"', "--target or --report-target:"),
    );
  }
  // With --emit, standard output is the provider-ready JSON only; the report goes to standard error.
  const report = (text: string) => (emit ? io.err(text) : io.out(text));
  report(admissionReport(tools, result, source, mode, namespace));
  if (result.ok && targets !== undefined) {
    report(targetReport(result.value));
    if (emit) io.out(JSON.stringify(providerRequests(result.value), null, 2) + "\n");
  }
  const failOnQuarantine = args.flags.has("--fail-on-quarantine");
  if (pinsPath === undefined) return admissionExitCode(result, failOnQuarantine);
  if (!result.ok) {
    const gate = result.error.code === "tool_changed" || result.error.code === "tool_unpinned";
    return gate ? ExitCode.pinsDiffer : admissionExitCode(result);
  }
  if (pins === undefined) {
    report(writePinsFile(pinsPath, result.value));
    return admissionExitCode(result, failOnQuarantine);
  }
  const listed = new Set([...result.value.accepted, ...result.value.rejected.map((r) => r.name)]);
  const gate = pinsGate(result.value, pins, listed);
  report(gateReport(pinsPath, gate));
  return gateFails(gate) ? ExitCode.pinsDiffer : admissionExitCode(result, failOnQuarantine);
}

/**
 * `--target` values as required targets (each tool must fit) and `--report-target` values as reported only
 * (`required: false`: the outcome is printed, no tool is refused for it), widened with `--widen`; undefined when none.
 */
function targetsOf(lists: ReadonlyMap<string, readonly string[]>, widen: boolean): AdmissionTarget[] | undefined {
  const given = [
    ...(lists.get("--target") ?? []).map((target) => ({ target, required: true })),
    ...(lists.get("--report-target") ?? []).map((target) => ({ target, required: false })),
  ];
  if (given.length === 0) return undefined;
  return given.map((t) => (widen ? { ...t, widen, describeWidening: true } : t));
}

/** Each target's provider-ready tools and the map from provider tool names back to the bundle's. */
function providerRequests(bundle: AdmittedBundle): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const id of bundle.targets) {
    const request = bundle.forTarget(id);
    if (request === undefined) continue;
    out[id] = { tools: request.tools, names: request.names.toJSON(), errors: request.errors };
  }
  return out;
}

/**
 * A catalog file's tools with what MCP's `Tool` does not carry: a tool without a `revision` gets `--revision`, or by
 * default its definition's digest (`sha256:` and the first 12 hex digits of the SHA-256 of its canonical JSON), so a
 * saved `tools/list` result admits as it is and a changed definition has another revision; with `--backend`, a tool
 * without a `backend` gets it. A tool's own fields are kept; what is not an object is left for admission to refuse.
 */
function withFileDefaults(tools: unknown[], revision: string | undefined, backend: string | undefined): unknown[] {
  return tools.map((tool) => {
    if (!isPlainObject(tool)) return tool;
    const filled: Record<string, unknown> = { ...tool };
    if (!Object.hasOwn(tool, "revision")) filled["revision"] = revision ?? digestOf(tool);
    if (backend !== undefined && !Object.hasOwn(tool, "backend")) filled["backend"] = backend;
    return filled;
  });
}

/** `sha256:` and the first 12 hex digits of the SHA-256 of a definition's canonical JSON. */
function digestOf(tool: unknown): string {
  return "sha256:" + createHash("sha256").update(canonicalJson(tool)).digest("hex").slice(0, 12);
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(text);
  if (!/^[0-9]+$/.test(text) || ms < 1 || ms > MAX_TIMEOUT_MS)
    throw new CliError(
      `--timeout-ms must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got "${text}"`,
    );
  return ms;
}
