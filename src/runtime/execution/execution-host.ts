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
const STAGES = ["authorize", "approve", "reserveBudget", "publishIntent"] as const;

/** One of the host's optional stages. */
type StageKey = (typeof STAGES)[number];

const FIELDS: readonly string[] = [...STAGES, "dispatch"];

type Callable = (this: unknown, ...args: unknown[]) => unknown;

/** A host's fields as read once: the stages it gives, in order, and `dispatch`, to call with `self` as `this`. */
export interface ReadHost {
  readonly self: object;
  readonly stages: readonly (readonly [StageKey, Callable])[];
  readonly dispatch: Callable;
}

/** The host's field names: own names, and for a class instance the names along its prototype chain. */
function fieldNames(host: object): string[] {
  const names = Object.getOwnPropertyNames(host);
  for (let proto = Object.getPrototypeOf(host); proto !== null && proto !== Object.prototype;) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== "constructor") names.push(name);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
}

/** The host's stages and dispatch, each read once, or the `options_invalid` error saying what is wrong with it. */
export function readHost(host: unknown): Result<ReadHost, BackplaneError<"options_invalid">> {
  const what = "Execution.invoke host";
  try {
    // Inside the guard: Array.isArray throws for a revoked Proxy.
    if (typeof host !== "object" || host === null || Array.isArray(host)) {
      return hostInvalid(`${what} must be an object with a dispatch function, got ${preview(host)}`);
    }
    for (const name of fieldNames(host)) {
      if (!FIELDS.includes(name)) return hostInvalid(unknownName(what, "field", name, FIELDS));
    }
    const fields = host as Record<string, unknown>;
    const stages: (readonly [StageKey, Callable])[] = [];
    for (const stage of STAGES) {
      const run = fields[stage];
      if (run === undefined) continue;
      if (typeof run !== "function")
        return hostInvalid(`${what} field "${stage}" must be a function, got ${preview(run)}`);
      stages.push([stage, run as Callable]);
    }
    const dispatch = fields["dispatch"];
    if (typeof dispatch !== "function") {
      return hostInvalid(`${what} must have a dispatch function (it runs the tool), got ${preview(dispatch)}`);
    }
    return ok({ self: host, stages, dispatch: dispatch as Callable });
  } catch (e) {
    // A throwing getter or proxy trap.
    return hostInvalid(`${what} could not be read: ${errorMessage(e)}`);
  }
}

/** What is wrong with an `Execution.invoke` host: the gateway's `options_invalid` (at stage `host`). */
function hostInvalid(message: string): { ok: false; error: BackplaneError<"options_invalid"> } {
  return err({ class: "validation", code: "options_invalid", message });
}
