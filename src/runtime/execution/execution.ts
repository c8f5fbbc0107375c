/**
 * `Execution.invoke` (docs/guide/admission.md "Both ways: arguments before the stages, results after"): the bundle, the
 * host and the call are checked first, then the arguments against the admitted compiled schema, all before any host
 * stage runs; then authorize, approve, reserveBudget, publishIntent and dispatch run in that order, with the host as
 * `this`, stopping at the first that refuses. Nothing here throws or rejects.
 */

import { errorMessage, isInstance } from "../../engine/errors.js";
import type { ErrorClass } from "../../engine/errors.js";
import { preview } from "../../engine/json/json.js";
import { BoundaryError } from "../errors/boundary-error.js";
import type { ModelFacingError } from "../errors/backplane-error.js";
import type { ErrorCode } from "../errors/codes.js";
import { headerValueProblem } from "../descriptor/mcp-headers.js";
import { err, ok, type Result } from "../errors/result.js";
import { checkToolResult } from "./tool-result.js";
import { AdmittedBundle, type AdmittedTool } from "../admission/admitted-bundle.js";
import type { Authority } from "../admission/authority.js";
import { readHost, STAGES, type ReadHost, type StageKey } from "./execution-host.js";
import { unknownName } from "../../engine/compile/names.js";
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
 * What each host stage and `dispatch` are given (docs/guide/admission.md "Authority and grants"). Frozen; the same
 * object for every stage of one call.
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
export interface ExecutionError extends ModelFacingError<ErrorCode<"execution">> {
  /** The error class (docs/reference/errors.md "Error classes"). */
  class: ErrorClass;
  /**
   * One of `ErrorCode<"execution">`: "bundle_invalid", "options_invalid" (the host), "call_invalid", "tool_unknown",
   * "tool_quarantined", "tool_held", "arguments_invalid" (or the boundary's own code, such as "limit_exceeded"),
   * "arguments_undeclared" (`closedArguments`), "grant_missing", "stage_refused", "stage_failed", "dispatch_failed",
   * "output_invalid"; "validator_failed" if the gateway itself failed (a bug).
   */
  code: ErrorCode<"execution">;
  /** One line for the host; it may quote a host exception's message. Never shown to a model. */
  message: string;
  /** Where the call stopped. */
  stage: StageName;
  /** For argument and result errors: the boundary's error, with `toModelText()`. */
  cause?: BoundaryError;
  /** The refusing stage's own error value, what a stage, `dispatch` or the call object threw, or a refused result. */
  detail?: unknown;
  /**
   * Text written for a model, to return as the tool error: the boundary's rendering of argument or result errors,
   * or a fixed sentence naming the stage that refused or failed. Never a host exception's text or a stage's value.
   */
  modelText: string;
}

/** What every failure of a call says: where it stopped, its class and code, its texts for the host and the model. */
interface FailureFields {
  readonly stage: StageName;
  readonly class: ErrorClass;
  readonly code: ErrorCode<"execution">;
  readonly message: string;
  readonly modelText: string;
  readonly cause?: BoundaryError;
  readonly detail?: unknown;
}

function failure(fields: FailureFields): { ok: false; error: ExecutionError } {
  const { stage, code, message, modelText, cause, detail } = fields;
  const error: ExecutionError = { class: fields.class, code, message, stage, modelText };
  if (cause !== undefined) error.cause = cause;
  if (Object.hasOwn(fields, "detail")) error.detail = detail;
  return err(error);
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
  invoke<T>(bundle: AdmittedBundle, call: ToolCall, host: ExecutionHost<T>): Promise<Result<T, ExecutionError>> {
    // `run` guards itself and awaits only what a stage or dispatch answered as a thenable.
    return run(bundle, call, host);
  },
});

/** The model-facing sentence when the call could not be run at all (the host's own configuration is wrong). */
const NOT_RUN = "The tool call could not be run.";
/** The model-facing sentence for a call object that is not one. */
const UNREADABLE = "The tool call could not be read.";

type Failed = { ok: false; error: ExecutionError };

/**
 * The call: the host and the call read and checked at once (`hostOf`, `contextOf`), the stages, then dispatch. No
 * async function while every step answers at once: a call whose stages allow and whose `dispatch` returns a value
 * (not a thenable) is decided synchronously and its result handed back as a settled promise, so the caller's one
 * `await` is the only turn of the microtask queue it costs (an async function here would add its own promise and a
 * turn for each `await`, about a third of the call). A stage or `dispatch` answering a thenable is awaited from there
 * on (`afterStages`, `settled`). Every step guards its host data; the catch is the last guard.
 */
function run<T>(bundle: AdmittedBundle, call: ToolCall, given: ExecutionHost<T>): Promise<Result<T, ExecutionError>> {
  try {
    const host = hostOf(bundle, given);
    if (!isHost(host)) return Promise.resolve(host);
    const context = contextOf(bundle, call);
    if (!isContext(context)) return Promise.resolve(context);
    const stages = runStages(host, context);
    if (stages instanceof Promise) return afterStages<T>(host, context, stages);
    if (stages !== undefined) return Promise.resolve(stages);
    return dispatched<T>(host, context);
  } catch (e) {
    return Promise.resolve(gatewayFailed(e));
  }
}

/** The gateway's own failure (a bug): what `run` answers for anything its steps did not guard. */
function gatewayFailed(e: unknown): Failed {
  const message = `the gateway failed: ${errorMessage(e)}`;
  const fields = { stage: "lookup", class: "execution_failure", code: "validator_failed" } as const;
  return failure({ ...fields, message, modelText: NOT_RUN, detail: e });
}

/** The stages that answered a thenable, awaited; then dispatch. */
async function afterStages<T>(
  host: ReadHost,
  context: StageContext,
  stages: Promise<Failed | undefined>,
): Promise<Result<T, ExecutionError>> {
  try {
    const stopped = await stages;
    return stopped ?? (await dispatched<T>(host, context));
  } catch (e) {
    return gatewayFailed(e);
  }
}

/**
 * `dispatch` called with the host as `this`: what it returned, checked (`checkedResult`), as a settled promise when it
 * answered at once, else awaited (`settled`). Whether it answered a thenable is asked the way `await` asks it (its
 * `then` a function); reading `then` is reading host data, so a throwing getter is `dispatch_failed`.
 */
function dispatched<T>(host: ReadHost, context: StageContext): Promise<Result<T, ExecutionError>> {
  let given: unknown;
  try {
    given = host.dispatch.call(host.self, context);
    if (isObjectLike(given) && typeof (given as { then?: unknown }).then === "function") {
      return settled<T>(context, given as PromiseLike<T>);
    }
  } catch (e) {
    return Promise.resolve(dispatchFailed(context.name, e));
  }
  return Promise.resolve(checkedResult(context, given as T));
}

/** What `dispatch` answered as a thenable, awaited, then checked. */
async function settled<T>(context: StageContext, pending: PromiseLike<T>): Promise<Result<T, ExecutionError>> {
  let result: T;
  try {
    result = await pending;
  } catch (e) {
    return dispatchFailed(context.name, e);
  }
  try {
    return checkedResult(context, result);
  } catch (e) {
    return gatewayFailed(e);
  }
}

/** The bundle checked, then the host read: its stages and dispatch, or where the call stopped. */
function hostOf<T>(bundle: AdmittedBundle, given: ExecutionHost<T>): ReadHost | Failed {
  if (!isInstance(bundle, AdmittedBundle)) {
    const message = `Execution.invoke needs the bundle ToolCatalog.admitBatch returned, got ${preview(bundle)}`;
    return failure({ stage: "lookup", class: "validation", code: "bundle_invalid", message, modelText: NOT_RUN });
  }
  const hostRead = readHost(given);
  return hostRead.ok ? hostRead.value : failure({ stage: "host", ...hostRead.error, modelText: NOT_RUN });
}

function isHost(value: ReadHost | Failed): value is ReadHost {
  return !Object.hasOwn(value, "ok");
}

/** The call read, the tool looked up, its arguments and grant checked: the stages' context, or where it stopped. */
function contextOf(bundle: AdmittedBundle, call: ToolCall): StageContext | Failed {
  const read = readCall(call);
  if (!read.ok) {
    const { message, detail } = read;
    const thrown = detail === undefined ? {} : { detail };
    const fields = { stage: "lookup", class: "validation", code: "call_invalid" } as const;
    return failure({ ...fields, message, modelText: UNREADABLE, ...thrown });
  }
  const tool = bundle.registry.get(read.name);
  if (tool === undefined) return unavailable(bundle, read.name);
  const checked = checkArguments(tool, read.arguments);
  if (checked !== undefined) return checked;
  return grantedContext(bundle, tool, read.arguments);
}

/** The call's fields, each read once: `name` a string, no field but MCP's `CallToolRequest` params. */
function readCall(
  call: unknown,
): { ok: true; name: string; arguments: unknown } | { ok: false; message: string; detail?: unknown } {
  try {
    if (typeof call !== "object" || call === null || Array.isArray(call)) {
      return { ok: false, message: `the call must be an object { name, arguments? }, got ${preview(call)}` };
    }
    for (const field of Object.keys(call)) {
      if (isCallField(field)) continue;
      const meant = CALL_ALIASES.get(field);
      const message = unknownName("Execution.invoke call", "field", field, CALL_FIELDS);
      return {
        ok: false,
        message: meant === undefined ? message : `${message}; MCP calls it ${JSON.stringify(meant)}`,
      };
    }
    const fields = call as Record<string, unknown>;
    const name = fields["name"];
    if (typeof name !== "string") {
      return { ok: false, message: `the call's name must be a string (the tool to call), got ${preview(name)}` };
    }
    return { ok: true, name, arguments: fields["arguments"] };
  } catch (e) {
    // A throwing getter or a revoked Proxy as the call.
    return { ok: false, message: `the call could not be read: ${errorMessage(e)}`, detail: e };
  }
}

/** MCP `CallToolRequest` params (2025-11-25 and 2026-07-28): the fields a call may have. */
const CALL_FIELDS: readonly string[] = ["name", "arguments", "_meta", "task", "inputResponses", "requestState"];

/** Whether `field` is one of `CALL_FIELDS` (a switch: this runs on every call). */
function isCallField(field: string): boolean {
  switch (field) {
    case "name":
    case "arguments":
    case "_meta":
    case "task":
    case "inputResponses":
    case "requestState":
      return true;
    default:
      return false;
  }
}

/** Names other APIs give a call's fields, and MCP's name for each. */
const CALL_ALIASES: ReadonlyMap<string, string> = new Map([
  ["args", "arguments"],
  ["params", "arguments"],
  ["input", "arguments"],
  ["parameters", "arguments"],
  ["tool", "name"],
  ["toolName", "name"],
  ["tool_name", "name"],
]);

/**
 * The arguments against the tool's compiled input schema, then the values its `x-mcp-header`s carry, then, with
 * `closedArguments`, against the closed schema: what it alone refuses is a property the schema does not declare.
 */
function checkArguments(tool: AdmittedTool, args: unknown): Failed | undefined {
  const given = args === undefined ? NO_ARGUMENTS : args;
  const checked = tool.compiled.validate(given);
  const cause = checked.ok ? headerError(tool, args) : checked.error;
  if (cause === undefined) return undeclared(tool, given);
  return failure({
    stage: "arguments",
    class: cause.class,
    code: cause.code,
    message: cause.message,
    modelText: cause.toModelText(),
    cause,
  });
}

/**
 * A call the closed schema refuses (`closedArguments`): `arguments_undeclared`, its model text naming the undeclared
 * properties (the boundary names what `additionalProperties: false` refuses in arguments, escaped and bounded).
 */
function undeclared(tool: AdmittedTool, args: unknown): Failed | undefined {
  const closed = tool.closedArguments?.compiled;
  const checked = closed?.validate(args);
  if (checked === undefined || checked.ok) return undefined;
  const cause = checked.error;
  const limit = cause.class === "execution_failure";
  return failure({
    stage: "arguments",
    class: cause.class,
    code: limit ? cause.code : "arguments_undeclared",
    message: limit
      ? cause.message
      : `the arguments carry a property the input schema of "${tool.name}" does not declare (closedArguments): ` +
        cause.message,
    modelText: limit ? cause.toModelText() : `${UNDECLARED} ${cause.toModelText()}`,
    cause,
  });
}

/** What a model is told before the lines of a call the closed schema refuses. */
const UNDECLARED = "This host refuses properties the tool's input schema does not declare (closed arguments).";

/** An integer header outside the safe range (MCP 2026-07-28), as an argument error; undefined when none. */
function headerError(tool: AdmittedTool, args: unknown): BoundaryError | undefined {
  if (tool.headers.length === 0) return undefined;
  const header = headerValueProblem(tool.headers, args);
  if (header === undefined) return undefined;
  const { instancePointer, keywordLocation, message } = header;
  return new BoundaryError({
    class: "validation",
    code: "arguments_invalid",
    message: `the arguments are invalid at "${instancePointer}": ${message}`,
    instancePointer,
    errors: [{ valid: false, keywordLocation, instanceLocation: instancePointer, error: message }],
    // The header's property is one the schema declares: its path names no key the model chose.
    withheld: [`${instancePointer}: ${message} (expected by "x-mcp-header" at ${keywordLocation})`],
    about: "arguments",
  });
}

function isContext(value: StageContext | Failed): value is StageContext {
  return !Object.hasOwn(value, "ok");
}

/**
 * The stages' context, once the tool's grant is found: when the bundle's authority has grants, a tool without one
 * of its own is refused (`grant_missing`) before any host stage.
 */
function grantedContext(bundle: AdmittedBundle, tool: AdmittedTool, args: unknown): StageContext | Failed {
  const grants = Object.hasOwn(bundle.authority, "grants") ? bundle.authority.grants : undefined;
  const granted = grants !== undefined && Object.hasOwn(grants, tool.name);
  if (grants !== undefined && !granted) {
    return failure({
      stage: "authorize",
      class: "validation",
      code: "grant_missing",
      message:
        `the authority grants nothing for "${tool.name}", ` +
        "and grants are enforced because the authority has grants",
      modelText: refusedAt(tool.name, "authorize"),
    });
  }
  return Object.freeze({
    tool,
    name: tool.name,
    serverName: tool.serverName,
    arguments: args,
    authority: bundle.authority,
    grant: granted ? grants[tool.name] : undefined,
  });
}

/**
 * The host's stages in order from `from`, each with the host as `this`; the first refusal or failure stops the call.
 * Synchronous while the stages answer at once: only an object can be a promise, so a stage answering `true` or
 * `undefined` is not awaited (an await costs turns of the microtask queue and nothing else); from the first stage that
 * answers an object on, the rest run after it settles.
 */
function runStages(host: ReadHost, context: StageContext, from = 0): Failed | undefined | Promise<Failed | undefined> {
  const stages = host.stages;
  for (let i = from; i < stages.length; i++) {
    const runStage = stages[i];
    if (runStage === undefined) continue;
    let given: unknown;
    try {
      given = runStage.call(host.self, context);
    } catch (e) {
      return stageFailed(STAGES[i] as StageKey, context.name, e);
    }
    if (given === true || given === undefined) continue;
    if (isObjectLike(given)) return settledStage(host, context, i, given);
    const stopped = stageRefused(STAGES[i] as StageKey, context.name, refused(given as StageVerdict));
    if (stopped !== undefined) return stopped;
  }
  return undefined;
}

/** Stage `at` answered an object (perhaps a promise): its verdict awaited and read, then the stages after it. */
async function settledStage(
  host: ReadHost,
  context: StageContext,
  at: number,
  given: object,
): Promise<Failed | undefined> {
  const stage = STAGES[at] as StageKey;
  let outcome: { refused: boolean; detail?: unknown };
  try {
    // A verdict is host data too: reading it may throw.
    outcome = refused((await given) as StageVerdict);
  } catch (e) {
    return stageFailed(stage, context.name, e);
  }
  return stageRefused(stage, context.name, outcome) ?? (await runStages(host, context, at + 1));
}

function stageFailed(stage: StageKey, name: string, e: unknown): Failed {
  const message = `${stage} failed: ${errorMessage(e)}`;
  const modelText = failedAt(name, stage);
  return failure({ stage, class: "execution_failure", code: "stage_failed", message, modelText, detail: e });
}

/** The refusal of a stage whose verdict refused, else undefined. */
function stageRefused(
  stage: StageKey,
  name: string,
  outcome: { refused: boolean; detail?: unknown },
): Failed | undefined {
  if (!outcome.refused) return undefined;
  return failure({
    stage,
    class: "validation",
    code: "stage_refused",
    message: `${stage} refused the call to "${name}"`,
    modelText: refusedAt(name, stage),
    ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
  });
}

/** Whether a value is an object or a function: the only values that can be thenables. */
function isObjectLike(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

function dispatchFailed(name: string, e: unknown): Failed {
  return failure({
    stage: "dispatch",
    class: "execution_failure",
    code: "dispatch_failed",
    message: `dispatch of "${name}" failed: ${errorMessage(e)}`,
    modelText: failedAt(name, "dispatch"),
    detail: e,
  });
}

/** What `dispatch` returned, as the call's result; for a tool with an `outputSchema`, checked as a `CallToolResult`. */
function checkedResult<T>(context: StageContext, result: T): Result<T, ExecutionError> {
  const { tool, name } = context;
  if (tool.compiledOutput === undefined) return ok(result);
  const judged = checkToolResult(result, tool.compiledOutput);
  if (judged.ok) return judged;
  const e = judged.error;
  const message = `tool "${name}": ${e.message}`;
  return failure({
    stage: "result",
    class: e.class,
    code: e.code,
    message,
    modelText: e.toModelText(),
    cause: e,
    detail: result,
  });
}

/**
 * A call to a tool the bundle does not run: unknown, or listed as rejected, and then why, from the status admission
 * recorded.
 */
function unavailable(bundle: AdmittedBundle, name: string): Failed {
  const rejected = bundle.rejected.find((r) => r.name === name);
  if (rejected === undefined) {
    const message = `there is no tool named ${preview(name)}`;
    const modelText = `There is no tool named ${preview(name)}.`;
    return failure({ stage: "lookup", class: "validation", code: "tool_unknown", message, modelText });
  }
  const lookup = { stage: "lookup", modelText: `The tool "${name}" is not available.` } as const;
  const { error } = rejected;
  switch (rejected.status) {
    case "held": {
      const message = `tool "${name}" is held for review (${error.code})`;
      return failure({ ...lookup, class: "validation", code: "tool_held", message });
    }
    case "quarantined": {
      const why =
        error.code === "provider_unsupported"
          ? `the required provider target ${(error as ProviderError).profile} refuses it`
          : `its ${rejected.schema ?? "definition"} uses an unsupported capability`;
      const message = `tool "${name}" is quarantined: ${why}`;
      return failure({ ...lookup, class: "unsupported_capability", code: "tool_quarantined", message });
    }
    case "refused": {
      const message = `tool "${name}" is refused: ${error.code === "hidden_text" ? "it hides text" : error.code}`;
      return failure({ ...lookup, class: "validation", code: "tool_quarantined", message });
    }
  }
}

/** The model-facing sentence for a refusal: names the stage, never the host's reason. */
function refusedAt(name: string, stage: StageName): string {
  return `The call to "${name}" was refused at the ${stage} stage.`;
}

/** The model-facing sentence for a failure: names the stage, never the exception. */
function failedAt(name: string, stage: StageName): string {
  return `The call to "${name}" failed at the ${stage} stage.`;
}
