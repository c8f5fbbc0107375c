/**
 * Every instance of the required suite in all four output formats: each output has the shape the
 * 2020-12 output schema's matching `$defs` entry requires (checked with our own engine), agrees with
 * `isValid`, and every failing non-flag output carries at least one error message.
 */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compile, type OutputFormat, type OutputUnit } from "../../src/index.js";
import { jsonFiles, locateSuite, remotes } from "./locate.js";
import { readCases } from "./runner.js";

const suite = locateSuite();
const registry = remotes(suite);
const outputSchema = JSON.parse(
  readFileSync(join(suite, "output-tests", "draft2020-12", "output-schema.json"), "utf8"),
) as { $id: string };
const shapes = new Map<OutputFormat, ReturnType<typeof compile>>();
for (const format of ["flag", "basic", "detailed", "verbose"] as const) {
  shapes.set(
    format,
    compile(
      { $ref: `${outputSchema.$id}#/$defs/${format}` },
      { schemaRegistry: new Map([[outputSchema.$id, outputSchema]]) },
    ),
  );
}

function hasMessage(unit: OutputUnit): boolean {
  if (typeof unit.error === "string" && unit.error !== "") return true;
  return (unit.errors ?? []).some(hasMessage);
}

const tests = join(suite, "tests", "draft2020-12");
describe("output formats over the required suite", () => {
  for (const file of jsonFiles(tests, false)) {
    test(file.replace(/\.json$/, ""), () => {
      let checked = 0;
      for (const c of readCases(join(tests, file))) {
        const validator = compile(c.schema, { schemaRegistry: registry });
        for (const t of c.tests) {
          const valid = validator.isValid(t.data);
          for (const [format, shape] of shapes) {
            const output = validator.validate(t.data, { output: format });
            const where = `${c.description} / ${t.description} (${format})`;
            assert.equal(output.valid, valid, `${where}: agrees with isValid`);
            assert.ok(shape.isValid(output), `${where}: shape ${JSON.stringify(shape.validate(output).errors)}`);
            if (!valid && format !== "flag")
              assert.ok(hasMessage(output as OutputUnit), `${where}: carries an error message`);
            checked++;
          }
        }
      }
      assert.ok(checked > 0);
    });
  }
});
