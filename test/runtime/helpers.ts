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
    description?: string;
  }[];
  calls: { tool: string; description: string; arguments: unknown; valid: boolean }[];
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
