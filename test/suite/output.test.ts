/** output-tests/draft2020-12: each output the suite describes must satisfy its schema (checked with our own engine). */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compile, type OutputFormat } from "../../src/index.js";
import { jsonFiles, locateSuite } from "./locate.js";

interface OutputCase {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; output: Partial<Record<OutputFormat, unknown>> }[];
}

const root = join(locateSuite(), "output-tests", "draft2020-12");
const outputSchema = JSON.parse(readFileSync(join(root, "output-schema.json"), "utf8")) as { $id: string };
const registry = new Map([[outputSchema.$id, outputSchema]]);

for (const file of jsonFiles(join(root, "content"), false)) {
  describe(`output/${file.replace(/\.json$/, "")}`, () => {
    for (const c of JSON.parse(readFileSync(join(root, "content", file), "utf8")) as OutputCase[]) {
      describe(c.description, () => {
        for (const t of c.tests) {
          for (const format of Object.keys(t.output) as OutputFormat[]) {
            test(`${t.description} (${format})`, () => {
              const output = compile(c.schema).validate(t.data, { output: format });
              const check = compile(t.output[format], { schemaRegistry: registry });
              const verdict = check.validate(output);
              assert.ok(verdict.valid, `${JSON.stringify(output)}\n${JSON.stringify(verdict.errors)}`);
            });
          }
        }
      });
    }
  });
}
