/**
 * The admission table that `backplane-schema admit` and the demo (`npm start`) print: one row per tool with its
 * revision, status and reason, then a summary; or, for a refused batch, the error's class, code, tool and cause.
 * A tool held for review (changed since its pin, or new) shows the changed pointers; hidden text is reported.
 */

import type { AdmissionMode, AdmittedBundle, CatalogError, IdentityError, RejectedTool, Result } from "../index.js";
import { ExitCode, oneLine, withFlags } from "./args.js";
import { isObject } from "../engine/json/json.js";
import { word } from "./terminal-text.js";

/**
 * Exit status of an admission: 0 admitted, 1 refused or no tool admitted (or, with `failOnQuarantine`, any tool
 * quarantined), 3 refused because no verdict was reached (a limit). A held tool is the pins gate's (exit 4).
 */
export function admissionExitCode(result: Result<AdmittedBundle, CatalogError>, failOnQuarantine = false): number {
  if (!result.ok) return result.error.class === "execution_failure" ? ExitCode.executionFailure : ExitCode.invalid;
  const bundle = result.value;
  if (bundle.accepted.length === 0 && bundle.rejected.every((r) => !isHeld(r))) return ExitCode.invalid;
  if (failOnQuarantine && bundle.rejected.some((r) => !isHeld(r))) return ExitCode.invalid;
  return ExitCode.ok;
}

/**
 * Per provider target: one row per tool with its outcome (fits, translated, widened, refused) and where — the rule
 * and pointer of a refusal, the changes made — then the request's budgets when it exceeds one.
 */
export function targetReport(bundle: AdmittedBundle): string {
  let out = "";
  for (const id of bundle.targets) {
    const request = bundle.forTarget(id);
    if (request === undefined) continue;
    const rows = [["TOOL", "OUTCOME", "DETAIL"]];
    for (const [name, check] of request.report) {
      const error = check.error;
      const detail =
        check.outcome === "refused" && error !== undefined
          ? `${error.rule || error.code} at ${word(error.schemaPointer)}: ${error.message}`
          : check.changes.map((c) => `${c.kind} ${c.change} at ${word(c.pointer)}`).join("; ");
      rows.push([word(name), check.outcome, oneLine(detail)]);
    }
    const budgets = request.errors.map((e) => `  over budget: ${e.rule}: ${oneLine(e.message)}\n`).join("");
    const required = request.required ? "required" : "reported only";
    out += `\ntarget ${id} (${required}): ${request.tools.length} of ${request.report.size} sendable\n`;
    out += `${table(rows, "  ")}\n${budgets}`;
  }
  return out;
}

/**
 * The report of admitting `tools` (the descriptors as given) from `source` in `mode`, ending with a newline; a
 * `namespace` is the prefix the batch was admitted with (and the default separator).
 */
export function admissionReport(
  tools: readonly unknown[],
  result: Result<AdmittedBundle, CatalogError>,
  source: string,
  mode: AdmissionMode,
  namespace?: string,
): string {
  if (!result.ok) return refusal(result.error, source, mode);
  const bundle = result.value;
  const accepted = new Set(bundle.accepted);
  const rejected = new Map(bundle.rejected.map((r) => [r.name, r]));
  const hidden = new Map(bundle.hiddenText.map((h) => [h.name, h.places]));
  const rows = [["TOOL", "REVISION", "STATUS", "REASON"]];
  let held = 0;
  for (const tool of tools) {
    const own = stringField(tool, "name");
    const name = namespace === undefined ? own : `${namespace}__${own}`;
    const revision = word(stringField(tool, "revision"));
    const hides = hidden.get(name)?.map((h) => `${word(h.pointer)} (${h.codePoints.join(" ")})`);
    const hiding = hides === undefined ? [] : [`hidden text at ${hides.join(", ")}`];
    const quarantined = rejected.get(name);
    if (quarantined !== undefined && isHeld(quarantined)) {
      held++;
      rows.push([word(name), revision, "held", oneLine([heldReason(quarantined.error), ...hiding].join("; "))]);
    } else if (quarantined !== undefined) {
      const { error } = quarantined;
      const where = quarantined.schema === "outputSchema" ? " in outputSchema" : "";
      const reason = oneLine(`${error.class}/${error.code}${where}: ${withFlags(error.message)}`);
      rows.push([word(name), revision, "quarantined", reason]);
    } else if (accepted.has(name)) {
      const notes = oneLine([upgrades(bundle, name), ...hiding].filter(Boolean).join("; "));
      rows.push([word(name), revision, "accepted", notes]);
    }
  }
  const upgraded = bundle.upgraded.length > 0 ? `, ${bundle.upgraded.length} schema(s) upgraded from draft-07` : "";
  const review = held > 0 ? `, ${held} held for review` : "";
  return (
    table(rows, "") +
    `\n\n${source}: admitted (${mode}): ${bundle.accepted.length} accepted, ` +
    `${bundle.rejected.length - held} quarantined${review}${upgraded}\n`
  );
}

/** Whether a rejected tool waits for approval (changed or unpinned), rather than being refused. */
function isHeld(tool: RejectedTool): boolean {
  return tool.status === "held";
}

function heldReason(error: IdentityError | RejectedTool["error"]): string {
  if (error.code === "tool_unpinned") return "tool_unpinned: no pin";
  const fields = (error as IdentityError).fields ?? [];
  return fields.length === 1 && fields[0] === ""
    ? "tool_changed: differs from its digest"
    : `tool_changed at ${fields.map(word).join(", ")}`;
}

function refusal(e: CatalogError, source: string, mode: AdmissionMode): string {
  const rows = [["error", `${e.class}/${e.code}`]];
  if (e.tool !== undefined) rows.push(["tool", `${word(e.tool.name)} (revision ${word(e.tool.revision)})`]);
  rows.push(["message", oneLine(withFlags(e.message))]);
  if (e.fields !== undefined) rows.push(["fields", e.fields.map(word).join(", ")]);
  if (e.provider !== undefined) {
    const { profile, rule, keyword, schemaPointer } = e.provider;
    const at = JSON.stringify(schemaPointer);
    rows.push(["provider", `${profile} rule ${rule || "-"}, keyword ${keyword ? word(keyword) : "-"} at ${at}`]);
  }
  if (e.cause !== undefined) {
    const where = e.cause.schemaPointer !== undefined ? ` at schema ${JSON.stringify(e.cause.schemaPointer)}` : "";
    rows.push(["cause", `${e.cause.class}/${e.cause.code}${where}`]);
  }
  return `${source}: batch rejected (${mode})\n${table(rows, "  ")}\n`;
}

/** "draft-07 upgraded: inputSchema (1 change), …" for a tool whose schemas `draft07: "upgrade"` translated. */
function upgrades(bundle: AdmittedBundle, name: string): string {
  const mine = bundle.upgraded.filter((u) => u.name === name);
  if (mine.length === 0) return "";
  return "draft-07 upgraded: " + mine.map((u) => `${u.schema} (${u.changes.length} change(s))`).join(", ");
}

function stringField(value: unknown, key: string): string {
  return isObject(value) && typeof value[key] === "string" ? value[key] : "";
}

/** Aligned rows, each one line whatever its cells hold (`word` and `oneLine` made them so; this is the guard). */
function table(rows: string[][], prefix: string): string {
  const lines = rows.map((r) => r.map(oneLine));
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((r) => (r[i] ?? "").length)));
  return lines
    .map(
      (r) =>
        prefix +
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
          .join("  ")
          .trimEnd(),
    )
    .join("\n");
}
