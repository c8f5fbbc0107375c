/**
 * The servers' URI templates, and which server a resource URI that no server listed belongs to: the one whose template
 * matches it most specifically (uri-template.ts: linear matching within a step budget); templates of two servers that
 * match equally make the read ambiguous, and it is refused. Overlaps between servers' templates are reported once, when
 * they are listed, with which server a read both match goes to.
 */

import { matchTemplate, overlap, parseTemplate, specificity, type UriTemplate, type Work } from "../uri-template.js";
import { routeError, type RouteContext } from "./gathering.js";

/** MCP 2025-11-25 `server/resources.mdx` §Error Handling: resource not found. */
export const RESOURCE_NOT_FOUND = -32002;
/** Steps one resolution of a URI against every template may take (see uri-template.ts), and one overlap survey. */
const MATCH_BUDGET = 4_000_000;
/** The longest URI template kept; a longer one is left out (reported). */
const MAX_TEMPLATE_LENGTH = 2_048;

interface Template {
  readonly server: string;
  readonly template: UriTemplate;
}

export class Templates {
  /** The servers' URI templates, in listing order. */
  private templates: Template[] = [];
  /** What was reported already. */
  private reported = new Set<string>();

  constructor(private readonly context: RouteContext) {}

  /** Takes the templates just listed (each server's `uriTemplate`s); reports what cannot route and what overlaps. */
  replace(listed: readonly { server: string; template: string }[]): void {
    const templates: Template[] = [];
    for (const { server, template } of listed) {
      const parsed = template.length > MAX_TEMPLATE_LENGTH ? undefined : parseTemplate(template);
      if (parsed === undefined) {
        this.report(
          `${server}: the URI template ${JSON.stringify(template.slice(0, 80))} is ` +
            (template.length > MAX_TEMPLATE_LENGTH
              ? `longer than ${MAX_TEMPLATE_LENGTH} characters`
              : "not an RFC 6570 template") +
            "; no read is routed by it",
        );
        continue;
      }
      templates.push({ server, template: parsed });
    }
    this.templates = templates;
    this.surveyOverlaps(templates);
  }

  /** Says a thing once (the same overlap or template is met at every listing). */
  private report(text: string): void {
    if (this.reported.has(text)) return;
    this.reported.add(text);
    this.context.warn(text);
  }

  /** Reports templates of different servers that can match one URI, and which of them a read of it goes to. */
  private surveyOverlaps(templates: readonly Template[]): void {
    const work: Work = { work: 0, limit: MATCH_BUDGET };
    for (let i = 0; i < templates.length; i++) {
      for (let j = i + 1; j < templates.length; j++) {
        const a = templates[i] as Template;
        const b = templates[j] as Template;
        if (a.server === b.server || !overlap(a.template, b.template, work)) continue;
        const order = specificity(a.template, b.template);
        const [wins, loses] = order >= 0 ? [a, b] : [b, a];
        const what =
          `the URI templates ${a.template.template} (${a.server}) and ` +
          `${b.template.template} (${b.server}) overlap`;
        this.report(
          order === 0
            ? `${what}: a read both match is refused as ambiguous`
            : `${what}: a read both match goes to ${wins.server}, the more specific (${loses.server}'s is wider)`,
        );
      }
    }
    if (work.work > MATCH_BUDGET)
      this.report(`the URI templates' overlaps were not all checked (more than ${MATCH_BUDGET} steps)`);
  }

  /**
   * The server whose template matches `uri` most specifically; `undefined` when none does. Two servers' templates that
   * match equally specifically make the read ambiguous: it is refused.
   */
  owner(uri: string): string | undefined {
    const exact = this.templates.find((t) => t.template.template === uri);
    if (exact !== undefined) return exact.server;
    const work: Work = { work: 0, limit: MATCH_BUDGET };
    let best: Template[] = [];
    for (const t of this.templates) {
      if (!matchTemplate(t.template, uri, work)) continue;
      const order = best.length === 0 ? 1 : specificity(t.template, (best[0] as Template).template);
      if (order > 0) best = [t];
      else if (order === 0) best.push(t);
    }
    if (work.work > MATCH_BUDGET) {
      this.context.warn(`a resource URI of ${uri.length} characters was not matched: more than ${MATCH_BUDGET} steps`);
      throw routeError(
        this.context,
        RESOURCE_NOT_FOUND,
        "Resource not found: the URI is too long to match against the templates",
      );
    }
    const servers = [...new Set(best.map((t) => t.server))];
    if (servers.length > 1) {
      const which = best.map((t) => `${t.template.template} (${t.server})`).join(", ");
      this.context.warn(`a read of ${uri.slice(0, 200)} was refused: it matches ${which} equally`);
      throw routeError(
        this.context,
        this.context.sdk.types.ErrorCode.InvalidParams,
        `the resource URI matches the templates of several servers equally (${servers.join(", ")}); ` +
          "the gateway does not guess",
      );
    }
    return servers[0];
  }
}
