import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { locateSuite } from "../../suite/locate.js";
import { compilePattern } from "../../../src/engine/regex/index.js";
import { meter, specTest } from "./helpers.js";

const FILES = [
  "optional/ecmascript-regex.json",
  "optional/non-bmp-regex.json",
  "pattern.json",
  "patternProperties.json",
];

interface SuiteCase {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: SuiteCase[];
}

/** Every `pattern` value and `patternProperties` key anywhere in a schema. */
function patternsOf(schema: unknown, out: string[] = []): string[] {
  if (Array.isArray(schema)) for (const s of schema) patternsOf(s, out);
  else if (schema !== null && typeof schema === "object") {
    for (const [k, v] of Object.entries(schema)) {
      if (k === "pattern" && typeof v === "string") out.push(v);
      if (k === "patternProperties" && v !== null && typeof v === "object") out.push(...Object.keys(v));
      patternsOf(v, out);
    }
  }
  return out;
}

/** Strings a pattern is applied to: string instances and object keys, recursively. */
function stringsOf(data: unknown, out: string[] = []): string[] {
  if (typeof data === "string") out.push(data);
  else if (Array.isArray(data)) for (const d of data) stringsOf(d, out);
  else if (data !== null && typeof data === "object") {
    for (const [k, v] of Object.entries(data)) {
      out.push(k);
      stringsOf(v, out);
    }
  }
  return out;
}

for (const file of FILES) {
  test(`JSON-Schema-Test-Suite ${file}`, () => {
    const path = join(locateSuite(), "tests", "draft2020-12", file);
    const groups = JSON.parse(readFileSync(path, "utf8")) as SuiteGroup[];
    let checked = 0;
    for (const group of groups) {
      const patterns = patternsOf(group.schema);
      for (const p of patterns) {
        const compiled = compilePattern(p);
        for (const t of group.tests) {
          for (const s of stringsOf(t.data)) {
            assert.equal(
              compiled.test(s, meter()),
              specTest(p, s),
              `${file} "${group.description}": /${p}/u on ${JSON.stringify(s)}`,
            );
            checked++;
          }
        }
      }
      // Schemas made only of `pattern` (and `type: "string"`) are evaluated against the suite's verdict.
      const schema = group.schema as Record<string, unknown>;
      const keys = Object.keys(schema).filter((k) => k !== "$schema");
      const simple =
        typeof schema.pattern === "string" &&
        keys.every((k) => k === "pattern" || (k === "type" && schema.type === "string"));
      if (!simple) continue;
      const compiled = compilePattern(schema.pattern as string);
      for (const t of group.tests) {
        const valid = typeof t.data === "string" ? compiled.test(t.data, meter()) : schema.type === undefined;
        assert.equal(valid, t.valid, `${file} "${group.description}" / "${t.description}"`);
        checked++;
      }
    }
    assert.ok(checked > 0);
  });
}
