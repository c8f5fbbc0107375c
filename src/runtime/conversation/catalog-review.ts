/**
 * A conversation's review of its catalogs (docs/guide/pins.md "Reviewed updates"): the pins in force, the
 * tools held for approval, and what each admitted catalog changed against the one before it (added, removed and
 * changed tools). Built from admitted bundles only: names, revisions and JSON Pointers, never descriptor text or a
 * diagnostic.
 */

import { defineOwn } from "../../engine/json/json.js";
import type { AdmittedBundle } from "../admission/admitted-bundle.js";
import { canonicalDigestSync } from "../identity/tool-identity.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import type { Checkpoint } from "./conversation-input.js";
import { isDigest, type IdentityError } from "../identity/pins.js";

/** A tool held for review: it differs from its pin, or it is new under `unpinned: "hold"`. */
export interface HeldTool {
  /** The tool name. */
  readonly name: string;
  /** The descriptor's revision. */
  readonly revision: string;
  /** `tool_changed` or `tool_unpinned`. */
  readonly code: "tool_changed" | "tool_unpinned";
  /** For `tool_changed`: the JSON Pointers that differ from the pin (`[""]` against a digest); else empty. */
  readonly fields: readonly string[];
}

/** A tool whose definition differs from its pin, and where. */
export interface ChangedTool {
  /** The tool name. */
  readonly name: string;
  /** The JSON Pointers into the provider tool that differ from the pin (`[""]` against a digest). */
  readonly fields: readonly string[];
}

/** What a catalog update (or an approval) changed against the catalog in force before it. */
export interface CatalogChanges {
  /** Tools listed now and not before (first seen, or removed and listed again: they are new). */
  added: string[];
  /** Tools listed before and not now; their pins are dropped. */
  removed: string[];
  /** Tools that differ from their pins: held, without their grants, until approved. */
  changed: ChangedTool[];
  /** Every tool held for approval now (changed, or new under `unpinned: "hold"`), in catalog order. */
  held: string[];
  /** Tools `approve` admitted (empty for a catalog update). */
  approved: string[];
}

/** A held tool as admission listed it, and what approving its definition pins. */
interface Held extends HeldTool {
  readonly candidate: string;
}

/** The pins in force, the held tools and the names of the catalog in force, updated from each admitted bundle. */
export class CatalogReview {
  private pins: Map<string, string>;
  private names: string[] = [];
  private heldTools: Held[] = [];
  /** Tool name → its pin in force and that pin's digest, computed once per pin. */
  private digests = new Map<string, { readonly pin: string; readonly digest: string }>();

  constructor(pins: ReadonlyMap<string, string>) {
    this.pins = new Map(pins);
  }

  /** The pins to admit the next catalog with: those in force, with `given` replacing or adding theirs. */
  pinsWith(given: ReadonlyMap<string, string>): Map<string, string> {
    const pins = new Map(this.pins);
    for (const [name, pin] of given) pins.set(name, pin);
    return pins;
  }

  /**
   * The pins in force and each held tool's approval, to admit the catalog again with `names` approved, or
   * `tool_not_held` for the first name that is not held.
   */
  approving(names: readonly string[]): Result<Map<string, string>, CatalogError> {
    const pins = new Map(this.pins);
    for (const name of names) {
      const held = this.heldTools.find((h) => h.name === name);
      if (held === undefined) {
        return err(catalogError("validation", "tool_not_held", `tool "${name}" is not held for review`));
      }
      pins.set(name, held.candidate);
    }
    return ok(pins);
  }

  /**
   * Takes in a bundle admitted with `pins`: the pins in force become the bundle's (a held tool keeps the pin it
   * differs from; pins of tools no longer listed are dropped), and the changes against the previous catalog.
   */
  record(bundle: AdmittedBundle, pins: ReadonlyMap<string, string>, approved: string[] = []): CatalogChanges {
    const held: Held[] = [];
    for (const r of bundle.rejected) {
      const { code } = r.error;
      if (r.status !== "held" || (code !== "tool_changed" && code !== "tool_unpinned")) continue;
      const fields = Object.freeze([...((r.error as IdentityError).fields ?? [])]);
      held.push(Object.freeze({ name: r.name, revision: r.revision, code, fields, candidate: r.pin as string }));
    }
    const inForce = new Map(Object.entries(bundle.pins));
    for (const h of held) {
      const pin = pins.get(h.name);
      if (pin !== undefined) inForce.set(h.name, pin);
    }
    const listed = new Set([...bundle.accepted, ...held.map((h) => h.name)]);
    const before = new Set(this.names);
    const changes: CatalogChanges = {
      added: [...listed].filter((name) => !before.has(name)),
      removed: this.names.filter((name) => !listed.has(name)),
      changed: held.filter((h) => h.code === "tool_changed").map((h) => ({ name: h.name, fields: h.fields })),
      held: held.map((h) => h.name),
      approved,
    };
    this.pins = inForce;
    this.heldTools = held;
    this.names = [...listed];
    return changes;
  }

  /** The tools held for approval, in catalog order. */
  get held(): HeldTool[] {
    return this.heldTools.map(({ name, revision, code, fields }) => ({ name, revision, code, fields }));
  }

  /** The pins in force, tool name → canonical text or digest, as a JSON-serialisable object. */
  inForce(): Record<string, string> {
    return Object.fromEntries(this.pins);
  }

  /** The pins in force as digests, for a checkpoint (compact; a restore compares them with the catalog). */
  digestsInForce(): Record<string, string> {
    const out: Record<string, string> = {};
    const digests = new Map<string, { readonly pin: string; readonly digest: string }>();
    for (const [name, pin] of this.pins) {
      const known = this.digests.get(name);
      const digest = isDigest(pin) ? pin : known?.pin === pin ? known.digest : canonicalDigestSync(pin);
      digests.set(name, { pin, digest });
      defineOwn(out, name, digest);
    }
    this.digests = digests;
    return out;
  }
}

/**
 * Why a restored catalog is not the one a checkpoint recorded, or undefined when it is: the same tools admitted and
 * held, by name and revision, none but the held ones differing from its pin. A tool the checkpoint held that the
 * restore's own `pins` (named in `approved`) now admit counts as approved.
 */
export function checkpointMismatch(
  bundle: AdmittedBundle,
  held: readonly HeldTool[],
  recorded: Checkpoint,
  approved: ReadonlySet<string>,
): CatalogError | undefined {
  const wasHeld = new Set((recorded.held ?? []).map((t) => t.name));
  const changed = held.find((h) => !wasHeld.has(h.name));
  if (changed !== undefined) {
    const differs = changed.code === "tool_changed" ? "differs from its pin" : "has no pin in the checkpoint";
    return {
      class: "validation",
      code: "checkpoint_mismatch",
      message: `the tools given do not admit to the checkpoint's catalog: tool "${changed.name}" ${differs}`,
      tool: { name: changed.name, revision: changed.revision },
      fields: [...changed.fields],
    };
  }
  const nowApproved = (name: string) => approved.has(name) && wasHeld.has(name) && bundle.registry.has(name);
  const at = (name: string, revision: string | undefined) => `${name}@${revision}`;
  const now = bundle.accepted.filter((name) => !nowApproved(name)).map((n) => at(n, bundle.registry.get(n)?.revision));
  const then = recorded.tools.map((t) => at(t.name, t.revision));
  now.push("held:", ...held.map((h) => at(h.name, h.revision)));
  then.push("held:", ...(recorded.held ?? []).filter((t) => !nowApproved(t.name)).map((t) => at(t.name, t.revision)));
  if (now.join("\n") === then.join("\n")) return undefined;
  return {
    class: "validation",
    code: "checkpoint_mismatch",
    message:
      "the tools given do not admit to the checkpoint's catalog " +
      `(expected ${then.join(", ")}; got ${now.join(", ")})`,
  };
}
