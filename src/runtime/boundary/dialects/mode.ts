/**
 * The explicit draft-07 option of the boundary (docs/guide/boundary.md "Draft-07, explicitly"): a schema declaring
 * draft-07 is `unsupported_capability` unless the host asks for `draft07: "upgrade"`, which translates it exactly with
 * `upgradeDraft07` first. Never implicit.
 */

import { isObject } from "../../../engine/json/json.js";
import type { Limits } from "../../../engine/limits.js";
import { InputSchemaError } from "../../errors/input-schema-error.js";
import { err, ok, type Result } from "../../errors/result.js";
import { upgradeDraft07Within, type UpgradeChange } from "./upgrade.js";

/** What to do with a schema declaring draft-07: refuse it (the default) or translate it exactly. */
export type Draft07Mode = "reject" | "upgrade";

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** Whether the schema's root declares draft-07 in `$schema` (false for a root that cannot be read). */
function declaresDraft07(schema: unknown): boolean {
  try {
    if (!isObject(schema) || !Object.hasOwn(schema, "$schema")) return false;
    const declared = schema["$schema"];
    return typeof declared === "string" && DRAFT_07.test(declared);
  } catch {
    return false;
  }
}

/**
 * The schema to compile: with `"upgrade"`, a schema declaring draft-07 is translated within the schema limits (the
 * changes are listed), or refused as `unsupported_capability` / `upgrade_blocked` with the reason, or as
 * `limit_exceeded`; anything else is returned as given.
 */
export function prepareDraft07(
  schema: unknown,
  mode: Draft07Mode,
  limits: Readonly<Limits>,
): Result<{ schema: unknown; changes?: UpgradeChange[] }, InputSchemaError> {
  if (mode !== "upgrade" || !declaresDraft07(schema)) return ok({ schema });
  const upgraded = upgradeDraft07Within(schema, limits);
  if (upgraded.ok) return ok(upgraded.value);
  const e = upgraded.error;
  // A schema that is not JSON is left to the compiler, which names the offending pointer.
  if (e.code === "schema_not_json") return ok({ schema });
  const blocked = e.code === "upgrade_blocked";
  return err(
    new InputSchemaError({
      class: e.class,
      code: e.code,
      message: blocked ? `the draft-07 schema cannot be translated to 2020-12 exactly: ${e.message}` : e.message,
      schemaPointer: e.schemaPointer,
      ...(e.code !== "upgrade_blocked" && e.limit !== undefined ? { limit: e.limit } : {}),
    }),
  );
}

/** The sentence a refused draft-07 schema's message ends with: it names the option that translates it. */
export function draft07Hint(code: string, schema: unknown, mode: Draft07Mode): string {
  return code === "dialect_unsupported" && mode === "reject" && declaresDraft07(schema)
    ? ` (pass draft07: "upgrade" to translate a draft-07 schema exactly)`
    : "";
}

/** The error with `draft07Hint` appended to its message. */
export function withDraft07Hint(error: InputSchemaError, schema: unknown, mode: Draft07Mode): InputSchemaError {
  const hint = draft07Hint(error.code, schema, mode);
  if (hint === "") return error;
  return new InputSchemaError({ ...error, message: error.message + hint });
}
