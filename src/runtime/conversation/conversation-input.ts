/**
 * What a `Conversation` is given (docs/guide/admission.md "Conversations"): its options, checked by name and value
 * under the conversation's own names (`mode` is `admitBatch`'s; a conversation takes `schemaAdmission`), and a
 * checkpoint, each of whose fields is read once and checked before anything is admitted.
 */

import { errorMessage } from "../../engine/errors.js";
import { defineOwn, isObject, preview } from "../../engine/json/json.js";
import { optionsProblem, type OptionCheck, type OptionTable } from "../../engine/options.js";
import type { Authority } from "../admission/authority.js";
import { catalogError, type CatalogError } from "../errors/catalog-error.js";
import { err, ok, type Result } from "../errors/result.js";
import type { Draft07Mode, LegacyDialectsMode } from "../boundary/dialects/mode.js";
import { namespaceOptionChecks } from "../descriptor/namespace.js";
import {
  identityOptionChecks,
  wellFormedDigest,
  type HiddenTextPolicy,
  type Pins,
  type UnpinnedPolicy,
} from "../identity/pins.js";
import { schemaOptionChecks } from "../boundary/schema-options.js";
import { admitOptionChecks, type AdmissionMode, type AdmitOptions } from "../admission/tool-catalog.js";

/**
 * Options of `Conversation.start` / `tryStart`: the first catalog, how it is admitted (`schemaAdmission`), and every
 * other option of `ToolCatalog.admitBatch` (the boundary's, authority, backends, pins, unpinned, hidden text,
 * namespaces, targets, `x-mcp-header`), which hold for this and later catalogs: the pins given are the first in force.
 */
export interface ConversationOptions extends Omit<AdmitOptions, "mode"> {
  /** The first catalog's tool descriptors. */
  tools: readonly unknown[];
  /**
   * `"strict"` (the default), `"quarantine"` or `"isolate"` (`AdmissionMode`), for this and later catalogs unless an
   * update says otherwise.
   */
  schemaAdmission?: AdmissionMode;
}

/** Options of `Conversation.updateCatalog`; each replaces the conversation's own for this and later catalogs. */
export interface UpdateOptions {
  /** How this and later catalogs are admitted. */
  schemaAdmission?: AdmissionMode;
  /** Whether draft-07 schemas of this and later catalogs are refused or translated exactly. */
  draft07?: Draft07Mode;
  /** Whether schemas of older dialects in this and later catalogs are refused or translated exactly. */
  legacyDialects?: LegacyDialectsMode;
  /** Replaces the conversation's authority for this and later catalogs (checked as `admitBatch` checks it). */
  authority?: Authority;
  /** Pins the host approved: added to those in force (a name given replaces its pin), for this and later catalogs. */
  pins?: Pins;
  /** Replaces the conversation's `unpinned` policy for this and later catalogs. */
  unpinned?: UnpinnedPolicy;
  /** Replaces the conversation's `hiddenText` policy for this and later catalogs. */
  hiddenText?: HiddenTextPolicy;
  /** Replaces the conversation's provider targets for this and later catalogs. */
  targets?: AdmitOptions["targets"];
}

/** How the conversation admits its catalogs, beyond the mode and the boundary options. */
export type Policy = Pick<
  AdmitOptions,
  | "unpinned"
  | "hiddenText"
  | "namespace"
  | "namespaceSeparator"
  | "maxToolNameLength"
  | "targets"
  | "mcpHeaders"
  | "closedArguments"
>;

/** A JSON-serialisable snapshot of a conversation, built from the admitted bundle only (no diagnostics). */
export interface Checkpoint {
  /** The checkpoint format. */
  version: 1;
  /** The catalog revision at the time of the checkpoint. */
  catalogRevision: number;
  /** How catalogs are admitted. */
  schemaAdmission: AdmissionMode;
  /** Whether draft-07 schemas are translated, when the conversation says so apart from `legacyDialects`. */
  draft07?: Draft07Mode;
  /** Whether schemas of older dialects are translated (absent in older checkpoints: `"refuse"`). */
  legacyDialects?: LegacyDialectsMode;
  /** Admitted tools by name and revision, in catalog order. */
  tools: NonNullable<CatalogError["tool"]>[];
  /** The bundle's narrowed authority. */
  authority: Authority;
  /**
   * The pins in force as digests, tool name → `sha256-…` (absent in older checkpoints): `restore` refuses a catalog
   * whose tools do not match them.
   */
  pins?: Record<string, string>;
  /** The tools held for approval, by name and revision (absent in older checkpoints: none). */
  held?: NonNullable<CatalogError["tool"]>[];
}

/** The checks of `admitBatch` options under a conversation's names. */
const admitCheck = (name: string): OptionCheck => admitOptionChecks.get(name) as OptionCheck;

/** `start` / `tryStart` options, fail closed: the boundary's, the first catalog and how it is admitted. */
export const START_OPTIONS: OptionTable = new Map([
  ...schemaOptionChecks,
  ["tools", () => undefined],
  ["authority", admitCheck("authority")],
  ["backends", admitCheck("backends")],
  ["schemaAdmission", admitCheck("mode")],
  ["targets", admitCheck("targets")],
  ["mcpHeaders", admitCheck("mcpHeaders")],
  ["closedArguments", admitCheck("closedArguments")],
  ...identityOptionChecks,
  ...namespaceOptionChecks,
]);

/** `restore` options: those of `start` but `schemaAdmission`, which the checkpoint records. */
export const RESTORE_OPTIONS: OptionTable = new Map([...START_OPTIONS].filter(([name]) => name !== "schemaAdmission"));

/** `updateCatalog` options, fail closed. */
export const UPDATE_OPTIONS: OptionTable = new Map([
  ["schemaAdmission", admitCheck("mode")],
  ["draft07", schemaOptionChecks.get("draft07") as OptionCheck],
  ["legacyDialects", schemaOptionChecks.get("legacyDialects") as OptionCheck],
  ["authority", admitCheck("authority")],
  ["targets", admitCheck("targets")],
  ...identityOptionChecks,
]);

/** `admitBatch`'s name for how a batch is admitted: a conversation's is `schemaAdmission`. */
const MODE =
  'is ToolCatalog.admitBatch\'s name: a conversation takes schemaAdmission ("strict", "quarantine" or "isolate")';

/** Names the conversation's own option names replace, and why. */
export const MISPLACED_START: ReadonlyMap<string, string> = new Map([["mode", MODE]]);
const RECORDED = "is recorded by the checkpoint: a conversation is restored with the checkpoint's schemaAdmission";
export const MISPLACED_RESTORE: ReadonlyMap<string, string> = new Map([
  ["mode", RECORDED],
  ["schemaAdmission", RECORDED],
]);

/** How one conversation method checks its options. */
export interface OptionsCheck {
  /** The options it takes, each with its check. */
  readonly table: OptionTable;
  /** The method, as messages name it. */
  readonly what: string;
  /** Names of other methods' options, and what to use instead. */
  readonly misplaced: ReadonlyMap<string, string>;
  /** Whether options must be given (`start`, `restore`: they carry `tools`). */
  readonly required: boolean;
}

/** The `options_invalid` error of the first problem with a conversation method's options, or undefined. */
export function conversationOptionsError(options: unknown, check: OptionsCheck): CatalogError | undefined {
  const problem = firstProblem(options, check);
  return problem === undefined ? undefined : catalogError("validation", "options_invalid", problem);
}

function firstProblem(options: unknown, check: OptionsCheck): string | undefined {
  const { table, what, misplaced, required } = check;
  try {
    if (required && !isObject(options)) return `${what} needs options { tools, … }, got ${preview(options)}`;
    const problem = optionsProblem(options, table, what, misplaced);
    if (problem !== undefined || !required) return problem;
    const tools = (options as Record<string, unknown>)["tools"];
    return tools === undefined ? `${what} option "tools" is required (the catalog's tool descriptors)` : undefined;
  } catch (e) {
    // A throwing getter or proxy trap in host options.
    return `${what} options could not be read: ${errorMessage(e)}`;
  }
}

/** Checked options copied once (each getter runs once more), or the `options_invalid` of options not read. */
export function readOptions<T extends object>(options: T, what: string): Result<T, CatalogError> {
  try {
    return ok({ ...options });
  } catch (e) {
    return err(catalogError("validation", "options_invalid", `${what} options could not be read: ${errorMessage(e)}`));
  }
}

/** A checkpoint's fields, each read once and checked, or the `checkpoint_invalid` saying why it is not version 1. */
export function readCheckpoint(checkpoint: unknown): Result<Checkpoint, CatalogError> {
  const invalid = "not a version 1 conversation checkpoint";
  try {
    if (!isObject(checkpoint) || checkpoint["version"] !== 1) return checkpointInvalid(invalid);
    const { catalogRevision, schemaAdmission, draft07, legacyDialects, tools, authority, pins, held } = checkpoint;
    if (!Number.isInteger(catalogRevision) || (catalogRevision as number) < 1) {
      return checkpointInvalid(`${invalid}: catalogRevision must be a positive integer`);
    }
    if (schemaAdmission !== "strict" && schemaAdmission !== "quarantine" && schemaAdmission !== "isolate") {
      return checkpointInvalid(`${invalid}: schemaAdmission must be "strict", "quarantine" or "isolate"`);
    }
    if (draft07 !== undefined && draft07 !== "reject" && draft07 !== "upgrade") {
      return checkpointInvalid(`${invalid}: draft07 must be "reject" or "upgrade"`);
    }
    if (legacyDialects !== undefined && legacyDialects !== "refuse" && legacyDialects !== "upgrade") {
      return checkpointInvalid(`${invalid}: legacyDialects must be "refuse" or "upgrade"`);
    }
    const recorded = readTools(tools);
    if (recorded === undefined)
      return checkpointInvalid(`${invalid}: tools must be an array of { name, revision } strings`);
    const recordedHeld = held === undefined ? [] : readTools(held);
    if (recordedHeld === undefined)
      return checkpointInvalid(`${invalid}: held must be an array of { name, revision } strings`);
    const digests = pins === undefined ? undefined : readDigests(pins);
    if (digests === null)
      return checkpointInvalid(`${invalid}: pins must be an object from tool name to a sha256- digest`);
    // A checkpoint with pins pins every tool it admitted: one without is a checkpoint someone edited.
    const unpinned = recorded.find((t) => digests !== undefined && !Object.hasOwn(digests, t.name));
    if (unpinned !== undefined) return checkpointInvalid(`${invalid}: tool "${unpinned.name}" has no pin`);
    return ok({
      version: 1,
      catalogRevision: catalogRevision as number,
      schemaAdmission,
      ...(draft07 === undefined ? {} : { draft07 }),
      ...(legacyDialects === undefined ? {} : { legacyDialects }),
      tools: recorded,
      authority: authority as Authority,
      ...(digests === undefined ? {} : { pins: digests }),
      held: recordedHeld,
    });
  } catch (e) {
    return checkpointInvalid(`the checkpoint could not be read: ${errorMessage(e)}`);
  }
}

function checkpointInvalid(message: string): { ok: false; error: CatalogError } {
  return err(catalogError("validation", "checkpoint_invalid", message));
}

/** A checkpoint's `{ name, revision }` list, or undefined when it is not one. */
function readTools(tools: unknown): { name: string; revision: string }[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const recorded: { name: string; revision: string }[] = [];
  for (const tool of tools as unknown[]) {
    const name: unknown = isObject(tool) ? tool["name"] : undefined;
    const revision: unknown = isObject(tool) ? tool["revision"] : undefined;
    if (typeof name !== "string" || typeof revision !== "string") return undefined;
    recorded.push({ name, revision });
  }
  return recorded;
}

/** A checkpoint's pins (tool name → digest), or null when they are not that. */
function readDigests(pins: unknown): Record<string, string> | null {
  if (!isObject(pins)) return null;
  const out: Record<string, string> = {};
  for (const name of Object.keys(pins)) {
    const digest = pins[name];
    if (typeof digest !== "string" || !wellFormedDigest(digest)) return null;
    defineOwn(out, name, digest);
  }
  return out;
}

/** A non-empty array of names, read once, or undefined (also for one that cannot be read). */
export function readNames(names: unknown): string[] | undefined {
  try {
    const list: unknown[] = Array.isArray(names) ? [...(names as unknown[])] : [];
    return list.length > 0 && list.every((n) => typeof n === "string") ? (list as string[]) : undefined;
  } catch {
    return undefined;
  }
}
