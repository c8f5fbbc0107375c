/**
 * The authority a batch runs under (docs/guide/admission.md "Authority and grants"): its grants are checked against the
 * batch at admission, narrowed to the admitted tools, and enforced by `Execution.invoke` when present.
 */

import { isObject, defineOwn } from "../../engine/json/json.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";

/**
 * An authority: who calls, in which run, and what each tool is granted (docs/guide/admission.md "Authority and
 * grants").
 */
export interface Authority {
  /** Who is calling, for the host's stages; kept as given. */
  caller?: unknown;
  /** The run the calls belong to, for the host's stages; kept as given. */
  run?: unknown;
  /**
   * Tool name → that tool's grant. When present, a tool without a grant of its own is refused before any host
   * stage (`grant_missing`); the grant is handed to the stages. When absent, grants are not enforced.
   */
  grants?: Record<string, unknown>;
  /** Any other field, kept as given. */
  [field: string]: unknown;
}

/** An authority must be an object, and each of its grants must name a tool of the batch. */
export function authorityError(authority: unknown, names: ReadonlySet<string>): CatalogError | undefined {
  if (authority === undefined) return undefined;
  if (!isObject(authority)) return catalogError("validation", "authority_invalid", "authority must be an object");
  if (!Object.hasOwn(authority, "grants")) return undefined;
  const grants = authority["grants"];
  if (!isObject(grants))
    return catalogError("validation", "authority_invalid", "authority.grants must be an object keyed by tool name");
  for (const name of Object.keys(grants)) {
    if (!names.has(name))
      return catalogError(
        "validation",
        "grant_unknown_tool",
        `authority grants "${name}", which is not a tool of this batch`,
      );
  }
  return undefined;
}

/**
 * A copy of the authority keeping only the grants `keep` accepts; every other field is kept, and `grants` is present
 * exactly when the given authority has it (its presence is what turns grant enforcement on). The input is not touched.
 */
export function narrowAuthority(authority: Authority | undefined, keep: (name: string) => boolean): Authority {
  const out: Authority = {};
  if (authority === undefined) return out;
  for (const key of Object.keys(authority)) if (key !== "grants") defineOwn(out, key, authority[key]);
  if (!Object.hasOwn(authority, "grants")) return out;
  const given = authority["grants"] as Record<string, unknown>;
  const grants: Record<string, unknown> = {};
  for (const name of Object.keys(given)) if (keep(name)) defineOwn(grants, name, given[name]);
  out.grants = grants;
  return out;
}
