/**
 * Pins and hidden text at admission (docs/guide/pins.md): each tool's provider tool is
 * taken to its canonical form, checked for invisible characters, and compared with the pin the host approved
 * earlier (a canonical text or its digest); a tool without a pin follows the `unpinned` policy. What a refusal
 * says is JSON Pointers and code points, never the definition's text.
 */

import { errorMessage, SchemaError } from "../../engine/errors.js";
import { isObject } from "../../engine/json/json.js";
import type { Limits } from "../../engine/limits.js";
import { expecting, type OptionCheck, type OptionTable } from "../../engine/options.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import { canonicalLimits, canonicalText } from "./canonical-json.js";
import { changedFields } from "./changed-fields.js";
import { hiddenText, mayHideText, type HiddenText } from "./hidden-text.js";
import { canonicalDigestSync, reviewedPart } from "./tool-identity.js";
import { BoundaryError } from "../errors/boundary-error.js";
import type { ProviderTool } from "../descriptor/tool-descriptor.js";
import type { BackplaneError } from "../errors/backplane-error.js";

/**
 * Tool name → the pin the host approved: the tool's canonical text (`bundle.pins`, `ToolCatalog.canonical`) or its
 * digest (`sha256-…`, `ToolCatalog.digest`). A plain object or a `Map`.
 */
export type Pins = Readonly<Record<string, string>> | ReadonlyMap<string, string>;

/** What happens to a tool without a pin: `"admit"` (trust on first use, the default) or `"hold"` for approval. */
export type UnpinnedPolicy = "admit" | "hold";

/** What happens to a tool with hidden text: `"report"` (a diagnostic on the bundle, the default) or `"refuse"`. */
export type HiddenTextPolicy = "report" | "refuse";

/** Why a tool's definition was not admitted: it differs from its pin, has none, or hides text. */
export interface IdentityError extends BackplaneError<"tool_changed" | "tool_unpinned" | "hidden_text"> {
  /** Always `validation`. */
  readonly class: "validation";
  /** `tool_changed`, `tool_unpinned` (under `unpinned: "hold"`) or `hidden_text` (under `hiddenText: "refuse"`). */
  readonly code: "tool_changed" | "tool_unpinned" | "hidden_text";
  /** One line for the host: pointers and code points, never the definition's text. */
  readonly message: string;
  /**
   * For `tool_changed`: the JSON Pointers into the provider tool that differ from the pin (`changedFields`; for
   * schemas the changed subschemas), or `[""]` (the definition as a whole) when the pin is a digest.
   */
  readonly fields?: readonly string[];
  /** For `hidden_text`: where the invisible or reordering characters are, and which they are. */
  readonly hiddenText?: readonly HiddenText[];
}

const DIGEST = /^sha256-[A-Za-z0-9_-]{43}$/;

/** Whether a pin is a digest (else it is a canonical text). */
export function isDigest(pin: string): boolean {
  return pin.startsWith("sha256-");
}

/** Whether a text is a digest as `ToolCatalog.digest` writes it: `sha256-` and 43 base64url characters. */
export function wellFormedDigest(text: string): boolean {
  return DIGEST.test(text);
}

/**
 * The pins option read once into a Map, each entry checked as it is read (what is checked is what is used), or the
 * error `refuse` makes of what is wrong with it (`optionRefusal`: the entry point's `options_invalid`). Never throws.
 */
export function readPins<E>(value: unknown, refuse: (problem: string) => E): Result<Map<string, string>, E> {
  try {
    const entries = value instanceof Map ? [...(value as Map<unknown, unknown>)] : undefined;
    if (value === undefined) return ok(new Map());
    if (entries === undefined && !(isObject(value) && isPlain(value))) {
      return err(refuse("must be an object or a Map from tool name to a canonical text or a sha256- digest"));
    }
    const pins = new Map<string, string>();
    for (const [name, pin] of entries ?? Object.entries(value as Record<string, unknown>)) {
      if (typeof name !== "string") return err(refuse("must have tool names (strings) as keys"));
      const where = `for ${JSON.stringify(name)}`;
      if (typeof pin !== "string")
        return err(refuse(`${where} must be a string (a canonical text or a sha256- digest)`));
      if (isDigest(pin) ? !wellFormedDigest(pin) : !pin.startsWith("{")) {
        return err(
          refuse(`${where} must be a canonical text ("{…}") or a digest ("sha256-" and 43 base64url characters)`),
        );
      }
      pins.set(name, pin);
    }
    return ok(pins);
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    return err(refuse(`could not be read: ${errorMessage(e)}`));
  }
}

/** The pins option's check: what `readPins` finds wrong with the value. */
function pinsProblem(value: unknown): string | undefined {
  const pins = readPins(value, (problem) => problem);
  return pins.ok ? undefined : pins.error;
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The identity options of `admitBatch` and `Conversation`, checked fail closed. */
export const identityOptionChecks: OptionTable = new Map<string, OptionCheck>([
  ["pins", pinsProblem],
  ["unpinned", expecting((v) => v === "admit" || v === "hold", '"admit" or "hold"')],
  ["hiddenText", expecting((v) => v === "report" || v === "refuse", '"report" or "refuse"')],
]);

/**
 * The limits of a definition's canonical form, derived from admission's so that every tool whose schemas admission
 * accepts has one: its UTF-8 text may take 16 × `maxSchemaBytes` (each schema's text as the limits count it is at
 * most `maxSchemaBytes`, and at most six times that once every character is written as RFC 8785 escapes it; 4 ×
 * is left for the other fields), and it may nest as deep as its bytes allow (a `const` nests as deep as the
 * schema's bytes allow, and `maxSchemaDepth` counts subschemas, two JSON levels each under `properties`). Throws
 * `options_invalid` for malformed limits.
 */
export function identityLimits(limits: Partial<Limits> | undefined): Readonly<Limits> {
  const checked = canonicalLimits(limits);
  const bytes = Math.min(Number.MAX_SAFE_INTEGER, 16 * checked.maxSchemaBytes);
  return Object.freeze({ ...checked, maxSchemaBytes: bytes, maxSchemaDepth: bytes });
}

/** How one batch treats identities. */
export interface IdentityPolicy {
  readonly pins: ReadonlyMap<string, string>;
  readonly unpinned: UnpinnedPolicy;
  readonly hiddenText: HiddenTextPolicy;
  /** `identityLimits` of the batch's limits. */
  readonly limits: Readonly<Limits>;
}

/** What admission makes of one tool's identity. */
export type IdentityOutcome =
  /** Admitted: its pin from now on (its canonical text), and the hidden text found (reported, not refused). */
  | { readonly kind: "admitted"; readonly pin: string; readonly hidden: readonly HiddenText[] }
  /** Not admitted by the policy; `pin` is what approving its current definition would pin. */
  | {
      readonly kind: "refused";
      readonly pin: string;
      readonly hidden: readonly HiddenText[];
      readonly error: IdentityError;
    }
  /** No identity at all (not JSON, a limit) or a malformed pin: fatal for the batch. */
  | { readonly kind: "failed"; readonly error: CatalogError };

/**
 * The identity of one tool under `policy`: its provider tool and the backend it runs on (what a host reviews).
 * `revision` is for messages only.
 */
export function checkIdentity(
  provider: ProviderTool,
  backend: string | undefined,
  revision: string,
  policy: IdentityPolicy,
): IdentityOutcome {
  const id = { name: provider.name, revision };
  const what = `tool "${id.name}" (revision ${revision})`;
  let pin: string;
  let hidden: readonly HiddenText[] = [];
  try {
    pin = canonicalText(reviewedPart(backend === undefined ? provider : { ...provider, backend }), policy.limits);
    if (mayHideText(pin)) hidden = hiddenText(provider, policy.limits);
  } catch (e) {
    const cause = e instanceof SchemaError ? BoundaryError.from(e) : undefined;
    const message = `${what} has no canonical form, so it cannot be pinned: ${errorMessage(e)}`;
    const error = catalogError(cause?.class ?? "validation", "tool_invalid", message, id);
    if (cause !== undefined) error.cause = cause;
    return { kind: "failed", error };
  }
  const refused = (error: IdentityError): IdentityOutcome => ({ kind: "refused", pin, hidden, error });
  if (hidden.length > 0 && policy.hiddenText === "refuse") {
    const places = hidden.map((h) => `${h.pointer} (${h.codePoints.join(" ")})`);
    const message = `${what} has invisible or reordering characters at ${list(places)} (hiddenText: "refuse")`;
    return refused({ class: "validation", code: "hidden_text", message, hiddenText: hidden });
  }
  const pinned = policy.pins.get(id.name);
  if (pinned === undefined) {
    if (policy.unpinned === "admit") return { kind: "admitted", pin, hidden };
    const message = `${what} has no pin, and tools without one wait for approval (unpinned: "hold")`;
    return refused({ class: "validation", code: "tool_unpinned", message });
  }
  let fields: readonly string[];
  try {
    fields = differences(pinned, pin, policy.limits);
  } catch (e) {
    const message = `the pin of ${what} is not a tool definition's canonical text: ${errorMessage(e)}`;
    return { kind: "failed", error: catalogError("validation", "options_invalid", message, id) };
  }
  if (fields.length === 0) return { kind: "admitted", pin, hidden };
  const message = isDigest(pinned)
    ? `${what} differs from its pinned digest (a digest does not say which fields changed)`
    : `${what} differs from its pin at ${list(fields)}`;
  return refused({ class: "validation", code: "tool_changed", message, fields });
}

/**
 * The changed fields between a pin and a canonical text (`[""]` for a digest that differs); throws what
 * `changedFields` throws for a pin that is not a canonical text.
 */
function differences(pinned: string, canonical: string, limits: Readonly<Limits>): readonly string[] {
  if (pinned === canonical) return [];
  if (isDigest(pinned)) return canonicalDigestSync(canonical) === pinned ? [] : [""];
  // A pin that is the same JSON data written otherwise (reformatted by the host) is the same definition.
  return changedFields(pinned, canonical, limits);
}

/** The CatalogError of a strict batch for a tool its identity refused. */
export function identityCatalogError(id: { name: string; revision: string }, error: IdentityError): CatalogError {
  const out = catalogError(error.class, error.code, error.message, id);
  if (error.fields !== undefined) out.fields = [...error.fields];
  if (error.hiddenText !== undefined) out.hiddenText = [...error.hiddenText];
  return out;
}

/** At most five items, then how many more. */
function list(items: readonly string[]): string {
  const shown = items.slice(0, 5).join(", ");
  return items.length > 5 ? `${shown} and ${items.length - 5} more` : shown;
}
