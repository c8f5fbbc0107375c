/**
 * `Execution.invoke` (README "Batch admission and the gateways"): the bundle, the host and the call are checked
 * first, then the arguments against the admitted compiled schema, all before any host stage runs; then authorize,
 * approve, reserveBudget, publishIntent and dispatch run in that order, with the host as `this`, stopping at the first
 * that refuses. Nothing here throws or rejects.
 */

import { errorMessage, isInstance } from "../../engine/errors.js";
import type { ErrorClass } from "../../engine/errors.js";
import { isObject, preview } from "../../engine/json/json.js";
import type { InputSchemaError } from "../errors/input-schema-error.js";
import { err, ok, type Result } from "../errors/result.js";
import { checkToolResult } from "./tool-result.js";
import { AdmittedBundle, type AdmittedTool } from "../admission/admitted-bundle.js";
import type { Authority } from "../admission/authority.js";
import { readHost } from "./execution-host.js";
import type { ProviderError } from "../providers/report.js";

/** An MCP `tools/call` request's params. */
export interface ToolCall {
  /** The tool to call. */
  name: string;
  /** The arguments; MCP makes them optional, and an omitted (or `undefined`) value is checked as `{}`. */
  arguments?: unknown;
}

/** What omitted arguments are checked as (MCP `CallToolRequest.params.arguments` is optional). */
const NO_ARGUMENTS = Object.freeze({});

/**
 * What each host stage and `dispatch` are given (README "Authority and grants"). Frozen; the same object for every
 * stage of one call.
 */
export interface StageContext {
  /** The admitted tool: its descriptor fields, its provider tool and its compiled schemas. */
  readonly tool: AdmittedTool;
  /** The tool's name, as the call named it (with its namespace prefix, when the batch has one). */
  readonly name: string;
  /** The name the tool's server knows it by (`name` without the namespace prefix): call the server with it. */
  readonly serverName: string;
  /** The call's arguments as given, the very same value (`undefined` when omitted), already checked. */
  readonly arguments: unknown;
  /** The bundle's narrowed authority (caller, run, grants and every other field the host gave). */
  readonly authority: Authority;
  /** This tool's own grant (`authority.grants[name]`), or `undefined` when the authority has no grants. */
  readonly grant: unknown;
}

/**
 * A stage allows by returning `true`, `undefined` or `{ ok: true }`; it refuses with `false` or `{ ok: false, error?
 * }` (any other value refuses too).
 */
export type StageVerdict =
  | boolean
  | void
  | {
      /** Allowed. */
      ok: true;
    }
  | {
      /** Refused. */
      ok: false;
      /** The stage's reason, kept on `ExecutionError.detail` for the host (never shown to a model). */
      error?: unknown;
    };
/** A host stage: sync or async, given the call's context. */
export type Stage = (context: StageContext) => StageVerdict | Promise<StageVerdict>;

/**
 * The host's stages, run in the order of the fields below, each only when every earlier one allowed the call, and
 * called with the host as `this`. No other field is allowed (a misspelt stage is `options_invalid`, stage `host`,
 * before any stage runs): for a class instance that includes its methods, so keep helpers in `#private` methods or
 * closures. The host must be a plain object or class instance, not a Proxy (which the check cannot see through).
 */
export interface ExecutionHost<T> {
  /** Decides whether the caller may run this tool (after the boundary's own grant check). */
  authorize?: Stage;
  /** Asks for approval (a human, a policy). */
  approve?: Stage;
  /** Reserves the budget the call may spend. */
  reserveBudget?: Stage;
  /** Records the intent durably before anything runs. */
  publishIntent?: Stage;
  /** Runs the tool on its backend; for a tool with an `outputSchema`, returns an MCP `CallToolResult`. */
  dispatch: (context: StageContext) => T | Promise<T>;
}

/**
 * Where a call stopped: the lookup (a bundle that is not `admitBatch`'s, a call that cannot be read, an unknown or
 * quarantined tool), the host check (`options_invalid`: not an object, an unknown field, no `dispatch`), the argument
 * check, a host stage, dispatch or the result check.
 */
export type StageName =
  "lookup" | "host" | "arguments" | "authorize" | "approve" | "reserveBudget" | "publishIntent" | "dispatch" | "result";

/** Why a call did not run or its result was refused: data for the host, with `modelText` for the model. */
export interface ExecutionError {
  /** The error class (README "Errors"). */
  class: ErrorClass;
  /**
   * "bundle_invalid", "options_invalid" (the host), "call_invalid", "tool_unknown", "tool_quarantined", "tool_held",
   * "arguments_invalid" (or the boundary's own code, such as "limit_exceeded"), "grant_missing", "stage_refused",
   * "stage_failed", "dispatch_failed", "output_invalid"; "validator_failed" if the gateway itself failed (a bug).
   */
  code: string;
  /** One line for the host; it may quote a host exception's message. Never shown to a model. */
  message: string;
  /** Where the call stopped. */
  stage: StageName;
  /** For argument and result errors: the boundary's error, with `toModelText()`. */
  cause?: InputSchemaError;
  /** The refusing stage's own error value, what a stage, `dispatch` or the call object threw, or a refused result. */
  detail?: unknown;
  /**
   * Text written for a model, to return as the tool error: the boundary's rendering of argument or result errors,
   * or a fixed sentence naming the stage that refused or failed. Never a host exception's text or a stage's value.
   */
  modelText: string;
}

function failure(
  stage: StageName,
  cls: ErrorClass,
  code: string,
  message: string,
  modelText: string,
  extra: Pick<ExecutionError, "cause" | "detail"> = {},
): { ok: false; error: ExecutionError } {
  return err({ class: cls, code, message, stage, modelText, ...extra });
}

function refused(verdict: StageVerdict): { refused: boolean; detail?: unknown } {
  if (verdict === false) return { refused: true };
  if (verdict === true || verdict === undefined) return { refused: false };
  if (typeof verdict === "object" && verdict !== null && verdict.ok === false)
    return { refused: true, detail: verdict.error };
  if (typeof verdict === "object" && verdict !== null && verdict.ok === true) return { refused: false };
  return { refused: true, detail: verdict };
}

/** The gateway every tool call goes through. */
export const Execution = Object.freeze({
  /**
   * Runs one tool call through the boundary: the bundle must be one `ToolCatalog.admitBatch` returned and the host an
   * object of known stages with a `dispatch`; the tool is looked up in the bundle, the arguments are checked against
   * its compiled input schema and its grant against the authority, and only then do the host's stages run, in order,
   * and `dispatch`, each with the host as `this`. For a tool with an `outputSchema`, what `dispatch` returned is
   * checked as an MCP `CallToolResult`. Never throws and never rejects, whatever the bundle, call or host: every
   * refusal or failure is an `ExecutionError` result.
   */
  async invoke<T>(bundle: AdmittedBundle, call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> {
    try {
      return await run(bundle, call, host);
    } catch (e) {
      // Every step guards its host data; this is the last guard.
      const message = `the gateway failed: ${errorMessage(e)}`;
      return failure("lookup", "execution_failure", "validator_failed", message, NOT_RUN, { detail: e });
    }
  },
});

/** The model-facing sentence when the call could not be run at all (the host's own configuration is wrong). */
const NOT_RUN = "The tool call could not be run.";

async function run<T>(
  bundle: AdmittedBundle,
  call: ToolCall,
  given: ExecutionHost<T>,
): Promise<Result<T, ExecutionError>> {
  if (!isInstance(bundle, AdmittedBundle)) {
    const message = `Execution.invoke needs the bundle ToolCatalog.admitBatch returned, got ${preview(bundle)}`;
    return failure("lookup", "validation", "bundle_invalid", message, NOT_RUN);
  }
  const host = readHost(given);
  if (typeof host === "string") return failure("host", "validation", "options_invalid", host, NOT_RUN);
  const unreadable = "The tool call could not be read.";
  if (!isObject(call)) {
    const message = `the call must be an object { name, arguments? }, got ${preview(call)}`;
    return failure("lookup", "validation", "call_invalid", message, unreadable);
  }
  let name: unknown;
  let args: unknown;
  try {
    name = call.name;
    args = call.arguments;
  } catch (e) {
    return failure(
      "lookup",
      "validation",
      "call_invalid",
      `the call could not be read: ${errorMessage(e)}`,
      unreadable,
      { detail: e },
    );
  }
  const tool = typeof name === "string" ? bundle.registry.get(name) : undefined;
  if (tool === undefined) {
    const rejected = bundle.rejected.find((r) => r.name === name);
    if (rejected === undefined) {
      const message = `there is no tool named ${preview(name)}`;
      return failure("lookup", "validation", "tool_unknown", message, `There is no tool named ${preview(name)}.`);
    }
    const unavailable = `The tool "${name}" is not available.`;
    const { error } = rejected;
    if (error.code === "provider_unsupported") {
      const { profile } = error as ProviderError;
      const message = `tool "${name}" is quarantined: the required provider target ${profile} refuses it`;
      return failure("lookup", "unsupported_capability", "tool_quarantined", message, unavailable);
    }
    if (rejected.schema !== undefined) {
      const message = `tool "${name}" is quarantined: its ${rejected.schema} uses an unsupported capability`;
      return failure("lookup", "unsupported_capability", "tool_quarantined", message, unavailable);
    }
    return error.code === "hidden_text"
      ? failure("lookup", "validation", "tool_quarantined", `tool "${name}" is refused: it hides text`, unavailable)
      : failure("lookup", "validation", "tool_held", `tool "${name}" is held for review (${error.code})`, unavailable);
  }
  const checked = tool.compiled.validate(args === undefined ? NO_ARGUMENTS : args);
  if (!checked.ok) {
    const e = checked.error;
    return failure("arguments", e.class, e.code, e.message, e.toModelText(), { cause: e });
  }
  const grants = Object.hasOwn(bundle.authority, "grants") ? bundle.authority.grants : undefined;
  const granted = grants !== undefined && Object.hasOwn(grants, tool.name);
  if (grants !== undefined && !granted) {
    return failure(
      "authorize",
      "validation",
      "grant_missing",
      `the authority grants nothing for "${tool.name}", and grants are enforced because the authority has grants`,
      refusedAt(tool.name, "authorize"),
    );
  }
  const context: StageContext = Object.freeze({
    tool,
    name: tool.name,
    serverName: tool.serverName,
    arguments: args,
    authority: bundle.authority,
    grant: granted ? grants[tool.name] : undefined,
  });
  for (const [stage, runStage] of host.stages) {
    let outcome: { refused: boolean; detail?: unknown };
    try {
      // A verdict is host data too: reading it may throw.
      outcome = refused((await runStage.call(host.self, context)) as StageVerdict);
    } catch (e) {
      return failure(
        stage,
        "execution_failure",
        "stage_failed",
        `${stage} failed: ${errorMessage(e)}`,
        failedAt(tool.name, stage),
        { detail: e },
      );
    }
    if (outcome.refused) {
      return failure(
        stage,
        "validation",
        "stage_refused",
        `${stage} refused the call to "${tool.name}"`,
        refusedAt(tool.name, stage),
        outcome.detail === undefined ? {} : { detail: outcome.detail },
      );
    }
  }
  let result: T;
  try {
    result = (await host.dispatch.call(host.self, context)) as T;
  } catch (e) {
    return failure(
      "dispatch",
      "execution_failure",
      "dispatch_failed",
      `dispatch of "${tool.name}" failed: ${errorMessage(e)}`,
      failedAt(tool.name, "dispatch"),
      { detail: e },
    );
  }
  if (tool.compiledOutput === undefined) return ok(result);
  const judged = checkToolResult(result, tool.compiledOutput);
  if (judged.ok) return judged;
  const e = judged.error;
  return failure("result", e.class, e.code, `tool "${tool.name}": ${e.message}`, e.toModelText(), {
    cause: e,
    detail: result,
  });
}

/** The model-facing sentence for a refusal: names the stage, never the host's reason. */
function refusedAt(name: string, stage: StageName): string {
  return `The call to "${name}" was refused at the ${stage} stage.`;
}

/** The model-facing sentence for a failure: names the stage, never the exception. */
function failedAt(name: string, stage: StageName): string {
  return `The call to "${name}" failed at the ${stage} stage.`;
}
