/**
 * The built-in provider profiles by id, and how a target names one (docs/reference/profiles.md "Naming a profile"):
 * `name@version` exactly, a bare `name` for its newest version, or a profile object (checked by `defineProfile`).
 */

import { err, ok, type Result } from "../../errors/result.js";
import { defineProfile } from "./define-profile.js";
import { profileError, type ProfileError, type ProfileSpec, type ProviderProfile } from "./profile.js";
import { anthropic } from "./anthropic.js";
import { anthropicStrict } from "./anthropic-strict.js";
import { geminiJsonSchema } from "./gemini-json-schema.js";
import { geminiParameters } from "./gemini-parameters.js";
import { openai } from "./openai.js";
import { openaiStrict } from "./openai-strict.js";

function builtIn(spec: ProfileSpec): ProviderProfile {
  const result = defineProfile(spec);
  if (!result.ok) throw new Error(`built-in profile ${spec.name}: ${result.error.message}`);
  return result.value;
}

/** The built-in profiles by id (`openai-strict@2026-10`, …), in a fixed order. */
export const profiles: ReadonlyMap<string, ProviderProfile> = new Map(
  [openaiStrict, openai, anthropicStrict, anthropic, geminiParameters, geminiJsonSchema]
    .map(builtIn)
    .map((profile) => [profile.id, profile]),
);

/** A target: a built-in profile's id or name, or a profile object. */
export type Target = string | ProviderProfile;

/**
 * The profile a target names: a built-in by `name@version`, the newest built-in version of a bare `name`, or a
 * profile object checked as `defineProfile` checks it. Anything else (an unknown name, a malformed profile) is
 * `validation` / `options_invalid`.
 */
export function resolveProfile(target: Target): Result<ProviderProfile, ProfileError> {
  if (typeof target === "string") {
    const exact = profiles.get(target);
    if (exact !== undefined) return ok(exact);
    const named = [...profiles.values()]
      .filter((p) => p.name === target)
      .sort((a, b) => (a.version < b.version ? 1 : -1));
    if (named[0] !== undefined) return ok(named[0]);
    return err(profileError(`unknown provider profile "${target}" (known: ${[...profiles.keys()].join(", ")})`));
  }
  return defineProfile(target);
}

/** Every target resolved, or the first that cannot be (`options_invalid`); an empty list or repeats are refused. */
export function resolveTargets(targets: unknown): Result<ProviderProfile[], ProfileError> {
  if (!Array.isArray(targets) || targets.length === 0)
    return err(profileError("targets must be a non-empty array of profile ids or profiles"));
  const out: ProviderProfile[] = [];
  for (const target of targets) {
    if (typeof target !== "string" && (typeof target !== "object" || target === null))
      return err(profileError(`a target must be a profile id or a profile, got ${typeof target}`));
    const resolved = resolveProfile(target as Target);
    if (!resolved.ok) return resolved;
    if (out.some((p) => p.id === resolved.value.id))
      return err(profileError(`the target "${resolved.value.id}" is named twice`));
    out.push(resolved.value);
  }
  return ok(out);
}
