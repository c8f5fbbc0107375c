import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../suite/locate.js";

export interface CatalogFile {
  description: string;
  backends: string[];
  tools: {
    name: string;
    revision: string;
    backend: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: unknown;
    description?: string;
  }[];
  calls: { tool: string; description: string; arguments: unknown; valid: boolean }[];
  /** MCP CallToolResults a tool's dispatch may return, judged against its outputSchema. */
  results?: { tool: string; description: string; result: unknown; valid: boolean }[];
}

/** The first recorded valid result of a tool, or a text-only CallToolResult for a tool without one. */
export function sampleResult(catalog: CatalogFile, name: string): unknown {
  const recorded = catalog.results?.find((r) => r.tool === name && r.valid && !isToolError(r.result));
  return recorded?.result ?? { content: [{ type: "text", text: "ok" }] };
}

function isToolError(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { isError?: unknown }).isError === true;
}

export function readCatalog(name: string): CatalogFile {
  return JSON.parse(readFileSync(join(repoRoot, "fixtures", "catalogs", name), "utf8")) as CatalogFile;
}

export function tool(
  name: string,
  inputSchema: Record<string, unknown> = { type: "object" },
  extra: Record<string, unknown> = {},
) {
  return { name, revision: "r1", description: `the ${name} tool`, backend: "b", inputSchema, ...extra };
}

export const DRAFT_07 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object" };
