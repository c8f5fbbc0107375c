/**
 * What one admission of the gateway's catalog did (catalog.ts), as the gateway and review report it: the library's
 * changes and rejections sorted the gateway's way (what quarantine omits is quarantined; what would have refused a
 * quarantine batch is excluded, which isolate mode rejects alone), with the gateway's own judgement of pins and the
 * names several servers list.
 */

import type { ChangedTool, HeldTool } from "../../../index.js";
import { describeError } from "../../args.js";
import type { AdmissionChanges } from "./catalog-in-force.js";
import type { LeftOut, ReadListings } from "./listed-tools.js";
import type { HeldServer } from "./pin-judging.js";
import type { Shadowed } from "./shadowing.js";

/** What one admission did: the library's names added, removed and approved, and the gateway's own findings. */
export interface Admission extends Pick<AdmissionChanges, "added" | "removed" | "approved"> {
  /** The first admission (no catalog before it). */
  readonly first: boolean;
  readonly accepted: readonly string[];
  /** The tools held because their definition changed, and where (from the gateway's judgement of pins). */
  readonly changed: readonly ChangedTool[];
  /** Every tool held now. */
  readonly held: readonly HeldTool[];
  /** Tools the library quarantined (unsupported schema, provider target, hidden text refused). */
  readonly quarantined: readonly LeftOut[];
  /** Tools excluded alone (their error would have refused a quarantine batch), and listed tools without a name. */
  readonly excluded: readonly LeftOut[];
  /** Tools admitted or held whose model-facing text hides characters (`--hidden-text report`). */
  readonly hiddenText: readonly { readonly name: string; readonly pointers: readonly string[] }[];
  /** With `--closed-arguments`: per admitted tool, the objects of its input schema closed and those left open. */
  readonly closedArguments: readonly ClosedTool[];
  /** Servers held: their identity differs from its pin (or has none under enforce); their tools are held with them. */
  readonly heldServers: readonly HeldServer[];
  /** Servers whose `serverInfo.version` alone differs from their pin: reported, never held. */
  readonly versionBumps: readonly { readonly server: string; readonly from: string; readonly to: string }[];
  /** Bare tool names more than one server lists, with those servers (namespacing keeps the tools apart). */
  readonly shadowed: readonly Shadowed[];
}

/** What closing one admitted tool's arguments did. */
export interface ClosedTool {
  readonly name: string;
  readonly closed: readonly string[];
  readonly open: readonly { readonly pointer: string; readonly reason: string }[];
}

/** The gateway's judgement of pins in one admission, as reported. */
export interface Judged {
  /** The tools held on their own account (without those held only with their server). */
  readonly held: readonly HeldTool[];
  readonly heldServers: readonly HeldServer[];
  readonly versionBumps: Admission["versionBumps"];
}

/** The library's rejections, sorted: quarantined, and excluded after the tools `read` left out already. */
function leftOut(changes: AdmissionChanges, read: ReadListings): { quarantined: LeftOut[]; excluded: LeftOut[] } {
  const quarantined: LeftOut[] = [];
  const excluded = [...read.excluded];
  for (const r of changes.bundle.rejected) {
    const code = r.error.code;
    if (r.status === "held") continue;
    const out = { name: r.name, server: read.owners.get(r.name) ?? "", code, reason: describeError(r.error) };
    // What quarantine would omit is quarantined; what would have refused the batch is excluded (isolate mode).
    if (r.status === "quarantined" || code === "hidden_text") quarantined.push(out);
    else excluded.push(out);
  }
  return { quarantined, excluded };
}

/** Per admitted tool with `--closed-arguments`, what closing its arguments did. */
function closedTools(changes: AdmissionChanges): ClosedTool[] {
  const out: ClosedTool[] = [];
  for (const tool of changes.bundle.registry.values()) {
    const c = tool.closedArguments;
    if (c !== undefined) out.push({ name: tool.name, closed: c.closed, open: c.open });
  }
  return out;
}

/** What an admission did: the library's `changes` to the listings `read`, and the gateway's `judged` pins. */
export function admissionOf(changes: AdmissionChanges, first: boolean, read: ReadListings, judged: Judged): Admission {
  const { bundle } = changes;
  const { held } = judged;
  return {
    first,
    accepted: [...bundle.accepted],
    added: changes.added,
    removed: changes.removed,
    changed: held.filter((h) => h.code === "tool_changed").map((h) => ({ name: h.name, fields: h.fields })),
    held,
    approved: changes.approved,
    ...leftOut(changes, read),
    hiddenText: bundle.hiddenText.map((h) => ({ name: h.name, pointers: h.places.map((p) => p.pointer) })),
    closedArguments: closedTools(changes),
    heldServers: judged.heldServers,
    versionBumps: judged.versionBumps,
    shadowed: read.shadowed,
  };
}
