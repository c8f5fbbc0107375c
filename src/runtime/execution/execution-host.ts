/**
 * The host object of `Execution.invoke` fails closed (docs/guide/admission.md "The host object fails closed"): it is an
 * object whose fields are the known stages and `dispatch` and nothing else, so a misspelt stage cannot be skipped
 * silently; `dispatch` is required and every stage given is a function. Its fields are own properties for a plain
 * object, and also the properties along the prototype chain of a class instance (its methods; `Object.prototype` and
 * `constructor` aside). Each field is read once, before any stage runs; the caller calls them with the host as `this`.
 */

import { errorMessage, type BackplaneError } from "../../engine/errors.js";
import { preview } from "../../engine/json/json.js";
import { unknownName } from "../../engine/compile/names.js";
import { err, ok, type Result } from "../errors/result.js";

/** The host stages, in the order they run (docs/guide/admission.md "The host object fails closed"). */
export const STAGES = ["authorize", "approve", "reserveBudget", "publishIntent"] as const;

/** One of the host's optional stages. */
export type StageKey = (typeof STAGES)[number];

const FIELDS: readonly string[] = [...STAGES, "dispatch"];

type Callable = (this: unknown, ...args: unknown[]) => unknown;

/** A host as read once: each stage it gives (by `STAGES` index), and `dispatch`, to call with `self` as `this`. */
export interface ReadHost {
  readonly self: object;
  /** The stage at each index of `STAGES`, or undefined where the host gives none. */
  readonly stages: readonly (Callable | undefined)[];
  readonly dispatch: Callable;
}

/** Whether `name` is a field a host may have (a switch: this runs on every call). */
function isField(name: string): boolean {
  switch (name) {
    case "dispatch":
    case "authorize":
    case "approve":
    case "reserveBudget":
    case "publishIntent":
      return true;
    default:
      return false;
  }
}

/**
 * The host's first field that is not a stage or `dispatch`: among its own names, and for a class instance the names
 * along its prototype chain (`Object.prototype` and `constructor` aside); undefined when there is none.
 */
function unknownField(host: object): string | undefined {
  for (const name of Object.getOwnPropertyNames(host)) if (!isField(name)) return name;
  for (let proto = Object.getPrototypeOf(host); proto !== null && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== "constructor" && !isField(name)) return name;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

/** The host's stages and dispatch, each read once, or the `options_invalid` error saying what is wrong with it. */
export function readHost(host: unknown): Result<ReadHost, BackplaneError<"options_invalid">> {
  const what = "Execution.invoke host";
  try {
    // Inside the guard: Array.isArray throws for a revoked Proxy.
    if (typeof host !== "object" || host === null || Array.isArray(host)) {
      return hostInvalid(`${what} must be an object with a dispatch function, got ${preview(host)}`);
    }
    const unknown = unknownField(host);
    if (unknown !== undefined) return hostInvalid(unknownName(what, "field", unknown, FIELDS));
    // Each field read by name, once: one shape of host is read the same way on every call.
    const fields = host as Partial<Record<StageKey | "dispatch", unknown>>;
    const given = [fields.authorize, fields.approve, fields.reserveBudget, fields.publishIntent];
    for (let i = 0; i < STAGES.length; i++) {
      const run = given[i];
      if (run !== undefined && typeof run !== "function")
        return hostInvalid(`${what} field "${STAGES[i] as StageKey}" must be a function, got ${preview(run)}`);
    }
    const dispatch = fields.dispatch;
    if (typeof dispatch !== "function") {
      return hostInvalid(`${what} must have a dispatch function (it runs the tool), got ${preview(dispatch)}`);
    }
    return ok({ self: host, stages: given as (Callable | undefined)[], dispatch: dispatch as Callable });
  } catch (e) {
    // A throwing getter or proxy trap.
    return hostInvalid(`${what} could not be read: ${errorMessage(e)}`);
  }
}

/** What is wrong with an `Execution.invoke` host: the gateway's `options_invalid` (at stage `host`). */
function hostInvalid(message: string): { ok: false; error: BackplaneError<"options_invalid"> } {
  return err({ class: "validation", code: "options_invalid", message });
}
