/**
 * The official suite of an older draft through the explicit upgrade (docs/guide/older-dialects.md): every schema is
 * compiled by the public `compile` with `legacyDialects: "upgrade"`, the required files and optional/format (format
 * asserting) like the 2020-12 run, and the other optional files with their own lists. A schema or remote that
 * declares no `$schema` is in its directory's draft (the suite's convention), so the runner declares it, as a host
 * that knows its documents does; the older meta-schemas a few tests reference are registered from a dev dependency's
 * copy (the library embeds 2020-12's only) and upgraded with the schema like any registry document. The figures
 * docs/guide/older-dialects.md quotes for each draft are the ones its run counts, checked here.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import type { CompileOptions } from "../../src/index.js";
import { jsonFiles, locateSuite, remotes, repoRoot } from "./locate.js";
import { runSuiteFiles, type Exceptions, type SuiteCounts } from "./runner.js";

/** The suite directories run through the upgrade, and the `$schema` each one's schemas are in. */
export const DRAFTS = {
  draft4: "http://json-schema.org/draft-04/schema#",
  draft6: "http://json-schema.org/draft-06/schema#",
  draft7: "http://json-schema.org/draft-07/schema#",
  "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
} as const;

export type Draft = keyof typeof DRAFTS;

/** The meta-schema documents of each draft, in @hyperjump/json-schema (a dev dependency). */
const META_SCHEMAS: Record<Draft, string[]> = {
  draft4: ["draft-04/schema.js"],
  draft6: ["draft-06/schema.js"],
  draft7: ["draft-07/schema.js"],
  "draft2019-09": [
    "draft-2019-09/schema.js",
    ...["core", "applicator", "validation", "meta-data", "format", "content"].map((m) => `draft-2019-09/meta/${m}.js`),
  ],
};

/** Folders of remotes shared by every draft (the others are named after the draft that uses them). */
const SHARED_REMOTES = new Set(["nested", "baseUriChange", "baseUriChangeFolder", "baseUriChangeFolderInSubschema"]);

/** A schema object without `$schema`, declared as `uri`; anything else as it is. */
export function declared(schema: unknown, uri: string): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || Object.hasOwn(schema, "$schema")) {
    return schema;
  }
  return { $schema: uri, ...schema };
}

async function registryFor(suite: string, draft: Draft): Promise<Map<string, unknown>> {
  const registry = new Map<string, unknown>();
  for (const [uri, document] of remotes(suite)) {
    const path = uri.slice("http://localhost:1234/".length).split("/");
    const mine = path.length === 1 || SHARED_REMOTES.has(path[0] as string) || path[0] === draft;
    registry.set(uri, mine ? declared(document, DRAFTS[draft]) : document);
  }
  const hyperjump = join(repoRoot, "node_modules", "@hyperjump", "json-schema");
  for (const file of META_SCHEMAS[draft]) {
    const meta = ((await import(pathToFileURL(join(hyperjump, file)).href)) as { default: Record<string, unknown> })
      .default;
    registry.set(String(meta["$id"] ?? meta["id"]), meta);
  }
  return registry;
}

/** What a draft's run lists: refusals (compile must refuse them) and deviations (they must fail), by prefix. */
export interface Listed {
  required?: Exceptions;
  optional?: Exceptions;
  optionalRefusals?: Exceptions;
  /** Optional files run with `contentAssertion: true` (draft-07 lets validators check content). */
  contentFiles?: readonly string[];
}

export async function runLegacySuite(draft: Draft, listed: Listed = {}): Promise<void> {
  const suite = locateSuite();
  const tests = join(suite, "tests", draft);
  const schemaRegistry = await registryFor(suite, draft);
  const options: CompileOptions = { schemaRegistry, legacyDialects: "upgrade" };
  const prepare = (schema: unknown): unknown => declared(schema, DRAFTS[draft]);
  const required = runSuiteFiles(tests, jsonFiles(tests, false), {
    options,
    prepare,
    refusals: listed.required ?? new Map(),
  });
  const optional = join(tests, "optional");
  const content = new Set(listed.contentFiles ?? []);
  const files = jsonFiles(optional, false).map((f) => "optional/" + f);
  const optionalCounts = runSuiteFiles(
    tests,
    files.filter((f) => !content.has(f)),
    { options, prepare, exceptions: listed.optional ?? new Map(), refusals: listed.optionalRefusals ?? new Map() },
  );
  if (content.size > 0) {
    const counted = runSuiteFiles(tests, [...content], { options: { ...options, contentAssertion: true }, prepare });
    optionalCounts.passed += counted.passed;
  }
  const format = runSuiteFiles(
    tests,
    jsonFiles(join(optional, "format"), false).map((f) => "optional/format/" + f),
    { options: { ...options, formatAssertion: true }, prepare },
  );
  test(`${GUIDE} states the figures of this run`, (t) => {
    const row = `| ${draft} | ${figures(required)} | ${figures(optionalCounts)} | ${figures(format)} |`;
    // What `node --test build/test/suite/legacy-*.test.js` prints for each draft: required, optional, optional/format.
    t.diagnostic(`${draft}: ${row.slice(row.indexOf("|", 2) + 2, -2)}`);
    const rows = readFileSync(join(repoRoot, GUIDE), "utf8")
      .split("\n")
      .filter((line) => line.startsWith(`| ${draft} |`));
    assert.deepEqual(rows, [row]);
  });
}

/** The guide whose conformance table quotes each draft's run. */
const GUIDE = "docs/guide/older-dialects.md";

/** A run's figures as the guide's table gives them: `1,254 passed, 5 refused`, `99 passed, 1 deviation`. */
function figures({ passed, refused, deviations }: SuiteCounts): string {
  const n = (count: number) => count.toLocaleString("en-US");
  return [
    `${n(passed)} passed`,
    ...(refused > 0 ? [`${n(refused)} refused`] : []),
    ...(deviations > 0 ? [`${n(deviations)} deviation${deviations === 1 ? "" : "s"}`] : []),
  ].join(", ");
}
