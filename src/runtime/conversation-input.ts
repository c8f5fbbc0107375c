/**
 * What a `Conversation` is given (README "Batch admission and the gateways"): its options, checked by name and value
 * under the conversation's own names (`mode` is `admitBatch`'s; a conversation takes `schemaAdmission`), and a
 * checkpoint, each of whose fields is read once and checked before anything is admitted.
 */

import { errorMessage } from "../engine/errors.js";
import { isObject, preview } from "../engine/json.js";
import { optionsProblem, type OptionCheck, type OptionTable } from "../engine/options.js";
import type { Authority } from "./authority.js";
import type { CatalogError } from "./catalog-error.js";
import type { Draft07Mode } from "./draft07.js";
import { schemaOptionChecks } from "./schema-options.js";
import { admitOptionChecks, type AdmissionMode } from "./tool-catalog.js";

/** A JSON-serialisable snapshot of a conversation, built from the admitted bundle only (no diagnostics). */
export interface Checkpoint {
  /** The checkpoint format. */
  version: 1;
  /** The catalog revision at the time of the checkpoint. */
  catalogRevision: number;
  /** How catalogs are admitted. */
  schemaAdmission: AdmissionMode;
  /** Whether draft-07 schemas are translated (absent in older checkpoints: `"reject"`). */
  draft07?: Draft07Mode;
  /** Admitted tools by name and revision, in catalog order. */
  tools: NonNullable<CatalogError["tool"]>[];
  /** The bundle's narrowed authority. */
  authority: Authority;
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
]);

/** `restore` options: those of `start` but `schemaAdmission`, which the checkpoint records. */
export const RESTORE_OPTIONS: OptionTable = new Map([...START_OPTIONS].filter(([name]) => name !== "schemaAdmission"));

/** `updateCatalog` options, fail closed. */
export const UPDATE_OPTIONS: OptionTable = new Map([
  ["schemaAdmission", admitCheck("mode")],
  ["draft07", schemaOptionChecks.get("draft07") as OptionCheck],
  ["authority", admitCheck("authority")],
]);

/** `admitBatch`'s name for how a batch is admitted: a conversation's is `schemaAdmission`. */
const MODE = 'is ToolCatalog.admitBatch\'s name: a conversation takes schemaAdmission ("strict" or "quarantine")';

/** Names the conversation's own option names replace, and why. */
export const MISPLACED_START: ReadonlyMap<string, string> = new Map([["mode", MODE]]);
const RECORDED = "is recorded by the checkpoint: a conversation is restored with the checkpoint's schemaAdmission";
export const MISPLACED_RESTORE: ReadonlyMap<string, string> = new Map([
  ["mode", RECORDED],
  ["schemaAdmission", RECORDED],
]);

/** The first problem with a conversation method's options, or undefined; `required` options must be given. */
export function conversationOptionsProblem(
  options: unknown,
  table: OptionTable,
  what: string,
  misplaced: ReadonlyMap<string, string>,
  required: boolean,
): string | undefined {
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

/** Checked options copied once (each getter runs once more), or why they cannot be read. */
export function readOptions<T extends object>(options: T, what: string): T | string {
  try {
    return { ...options };
  } catch (e) {
    return `${what} options could not be read: ${errorMessage(e)}`;
  }
}

/** A checkpoint's fields, each read once and checked, or why it is not a version 1 checkpoint. */
export function readCheckpoint(checkpoint: unknown): Checkpoint | string {
  const invalid = "not a version 1 conversation checkpoint";
  try {
    if (!isObject(checkpoint) || checkpoint["version"] !== 1) return invalid;
    const { catalogRevision, schemaAdmission, draft07, tools, authority } = checkpoint;
    if (!Number.isInteger(catalogRevision) || (catalogRevision as number) < 1) {
      return `${invalid}: catalogRevision must be a positive integer`;
    }
    if (schemaAdmission !== "strict" && schemaAdmission !== "quarantine") {
      return `${invalid}: schemaAdmission must be "strict" or "quarantine"`;
    }
    if (draft07 !== undefined && draft07 !== "reject" && draft07 !== "upgrade") {
      return `${invalid}: draft07 must be "reject" or "upgrade"`;
    }
    if (!Array.isArray(tools)) return `${invalid}: tools must be an array`;
    const recorded: { name: string; revision: string }[] = [];
    for (const tool of tools as unknown[]) {
      const name: unknown = isObject(tool) ? tool["name"] : undefined;
      const revision: unknown = isObject(tool) ? tool["revision"] : undefined;
      if (typeof name !== "string" || typeof revision !== "string") {
        return `${invalid}: each tool must be { name, revision } strings`;
      }
      recorded.push({ name, revision });
    }
    return {
      version: 1,
      catalogRevision: catalogRevision as number,
      schemaAdmission,
      ...(draft07 === undefined ? {} : { draft07 }),
      tools: recorded,
      authority: authority as Authority,
    };
  } catch (e) {
    return `the checkpoint could not be read: ${errorMessage(e)}`;
  }
}
