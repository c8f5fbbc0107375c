/** The CLI's `--format name=module` and `--strict-schema` on `validate` and `admit`. */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runCli } from "./helpers.js";

let dir = "";
const at = (name: string): string => join(dir, name);

before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-schema-options-"));
  writeFileSync(at("sku.mjs"), "export default (s) => /^[A-Z]{3}-[0-9]{4}$/.test(s);\n");
  writeFileSync(at("even.mjs"), 'export default { check: (n) => n % 2 === 0, types: ["integer"] };\n');
  writeFileSync(at("named.mjs"), "export const sku = () => true;\n");
  writeFileSync(at("regexp.mjs"), "export default /^[A-Z]{3}-[0-9]{4}$/u;\n");
  writeFileSync(at("map.mjs"), "export default new Map();\n");
  writeFileSync(at("sku-schema.json"), JSON.stringify({ type: "string", format: "sku" }));
  writeFileSync(at("email-schema.json"), JSON.stringify({ type: "string", format: "email" }));
  writeFileSync(at("even-schema.json"), JSON.stringify({ format: "even" }));
  writeFileSync(at("typo-schema.json"), JSON.stringify({ requried: ["a"], properties: { a: { maxLenght: 3 } } }));
  writeFileSync(at("good.json"), JSON.stringify("ABC-1234"));
  writeFileSync(at("bad.json"), JSON.stringify("abc"));
  writeFileSync(at("three.json"), "3");
  writeFileSync(at("object.json"), JSON.stringify({ a: "toolong" }));
  const tool = (name: string, inputSchema: unknown): unknown => ({ name, revision: "1", backend: "b", inputSchema });
  writeFileSync(
    at("catalog.json"),
    JSON.stringify({
      backends: ["b"],
      tools: [
        tool("ok", { type: "object", properties: { q: { type: "string" } } }),
        tool("typo", { type: "object", properties: { q: { type: "string", maxLenght: 3 } } }),
      ],
    }),
  );
  const order = { type: "object", properties: { sku: { type: "string", format: "sku" } }, required: ["sku"] };
  writeFileSync(
    at("sku-catalog.json"),
    JSON.stringify({ tools: [tool("order", order), tool("ping", { type: "object" })] }),
  );
});

after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

describe("validate --format", () => {
  test("a module's default export is the checker; it asserts with --format-assertion", () => {
    const args = ["validate", "--format", `sku=${at("sku.mjs")}`, "--format-assertion", at("sku-schema.json")];
    assert.equal(runCli([...args, at("good.json")]).status, 0);
    const bad = runCli([...args, at("bad.json")]);
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /must be a valid sku, got "abc"/);
  });

  test("issue 31 #9: without --format-assertion the checker would never run, so it is a usage error naming the flag", () => {
    // Before: exit 0 with "abc" unchecked. validate keeps the engine's default (format an annotation).
    for (const extra of [[], ["--no-format-assertion"]]) {
      const run = runCli(["validate", "--format", "sku=./sku.mjs", ...extra, "sku-schema.json", "bad.json"], {
        cwd: dir,
      });
      assert.equal(run.status, 2, run.stdout + run.stderr);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /^backplane-schema: --format sku=\.\/sku\.mjs would check nothing: /);
      assert.match(run.stderr, extra.length === 0 ? /add --format-assertion/ : /drop --no-format-assertion/);
    }
    // Without --format, format stays an annotation in validate: the built-in "email" checks nothing by default.
    assert.equal(runCli(["validate", at("email-schema.json"), at("bad.json")]).status, 0);
    assert.equal(runCli(["validate", "--format-assertion", at("email-schema.json"), at("bad.json")]).status, 1);
    const both = runCli([
      "validate",
      "--format-assertion",
      "--no-format-assertion",
      at("sku-schema.json"),
      at("bad.json"),
    ]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--format-assertion and --no-format-assertion cannot both be given/);
  });

  test("a { check, types } default export applies to its types", () => {
    const args = ["validate", "--format", `even=${at("even.mjs")}`, "--format-assertion", at("even-schema.json")];
    assert.equal(runCli([...args, at("three.json")]).status, 1);
    assert.equal(runCli([...args, at("good.json")]).status, 0, "a string is not among its types");
  });

  test("a module that cannot be imported or exports no default checker is a usage error", () => {
    for (const [spec, message] of [
      [`sku=${at("missing.mjs")}`, /--format sku=.*: no such file .*missing\.mjs\n$/],
      [`sku=${at("named.mjs")}`, /must export default a checker/],
      ["sku", /expected name=module/],
    ] as const) {
      const run = runCli(["validate", "--format-assertion", "--format", spec, at("sku-schema.json"), at("good.json")]);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr, message);
    }
    const twice = runCli([
      "validate",
      "--format-assertion",
      "--format",
      `a=${at("sku.mjs")}`,
      "--format",
      `a=${at("sku.mjs")}`,
      at("sku-schema.json"),
      at("good.json"),
    ]);
    assert.match(twice.stderr, /--format a given more than once/);
  });
});

describe("--format modules that give no checker (issue 31 #14)", () => {
  const validate = (spec: string) =>
    runCli(["validate", "--format-assertion", "--format", spec, "sku-schema.json", "good.json"], { cwd: dir });

  test("a regular expression is shown as its source (it printed as {}), with the checker to write instead", () => {
    const run = validate("sku=./regexp.mjs");
    assert.equal(run.status, 2);
    assert.equal(
      run.stderr,
      "backplane-schema: --format sku=./regexp.mjs: ./regexp.mjs must export default a checker (value) => boolean " +
        "or { check, types }, not the regular expression /^[A-Z]{3}-[0-9]{4}$/u; " +
        "write (s) => /^[A-Z]{3}-[0-9]{4}$/u.test(s)\n",
    );
    assert.doesNotMatch(run.stderr, /\{\}/);
    assert.match(validate("sku=./map.mjs").stderr, /, not an instance of Map\n$/);
    assert.match(validate("sku=./named.mjs").stderr, /, not nothing \(no default export\)\n$/);
  });

  test("a missing module is named by the user's path, never the CLI's own files", () => {
    const relative = validate("sku=./missing.mjs");
    assert.equal(relative.status, 2);
    assert.equal(
      relative.stderr,
      `backplane-schema: --format sku=./missing.mjs: no such file ./missing.mjs (${at("missing.mjs")})\n`,
    );
    const absolute = validate(`sku=${at("missing.mjs")}`);
    assert.equal(
      absolute.stderr,
      `backplane-schema: --format sku=${at("missing.mjs")}: no such file ${at("missing.mjs")}\n`,
    );
    const bare = validate("sku=no-such-format-package");
    assert.equal(bare.status, 2);
    assert.match(bare.stderr, /--format sku=no-such-format-package: cannot import no-such-format-package: .*'no-such/);
    // A file named without ./ is looked up as a package; the message says how to name the file.
    assert.match(validate("sku=sku.mjs").stderr, /; for the file, write \.\/sku\.mjs\n$/);
    for (const run of [relative, absolute, bare])
      assert.doesNotMatch(run.stderr, /boundary-options|build\/src|imported from/);
  });
});

describe("--strict-schema", () => {
  test("validate: a misspelt keyword is a schema error naming the keyword meant", () => {
    assert.equal(runCli(["validate", at("typo-schema.json"), at("object.json")]).status, 0);
    const run = runCli(["validate", "--strict-schema", at("typo-schema.json"), at("object.json")]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown keyword "requried" \(did you mean "required"\?\)/);
  });

  test("validate: with --format-assertion an unknown format is refused", () => {
    const run = runCli(["validate", "--strict-schema", "--format-assertion", at("sku-schema.json"), at("good.json")]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown format "sku"/);
    const known = ["--format", `sku=${at("sku.mjs")}`];
    assert.equal(
      runCli(["validate", "--strict-schema", "--format-assertion", ...known, at("sku-schema.json"), at("good.json")])
        .status,
      0,
    );
  });

  test("admit: a misspelt keyword in a tool's schema refuses the batch (a validation error), naming tool and pointer", () => {
    const plain = runCli(["admit", at("catalog.json")]);
    assert.equal(plain.status, 0, plain.stderr);
    assert.doesNotMatch(plain.stdout, /keyword_unknown/);
    const run = runCli(["admit", "--strict-schema", at("catalog.json")]);
    assert.equal(run.status, 1);
    assert.match(run.stdout, /tool +typo \(revision 1\)/);
    assert.match(run.stdout, /cause +validation\/keyword_unknown at schema "\/properties\/q\/maxLenght"/);
  });
});

describe("admit --format", () => {
  // Run in the directory of the files: a relative module path resolves against the working directory.
  const admit = (...args: string[]) => runCli(["admit", ...args, "sku-catalog.json"], { cwd: dir });
  const sku = ["--format", "sku=./sku.mjs"];

  test("a tool whose schema uses a host format is accepted with --format-assertion --format sku=./sku.mjs", () => {
    for (const args of [
      ["--format-assertion", ...sku],
      ["--strict-schema", "--format-assertion", ...sku],
    ]) {
      const run = admit(...args);
      assert.equal(run.status, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^order +1 +accepted$/m);
      assert.match(run.stdout, /admitted \(strict\): 2 accepted, 0 quarantined/);
    }
  });

  test("without --format, --strict-schema --format-assertion refuses the batch on the unknown format", () => {
    for (const mode of [[], ["--quarantine"]]) {
      const run = admit("--strict-schema", "--format-assertion", ...mode);
      assert.equal(run.status, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /batch rejected/);
      assert.match(run.stdout, /tool +order \(revision 1\)/);
      assert.match(run.stdout, /unknown format "sku", which would assert nothing/);
      assert.match(run.stdout, /cause +validation\/format_unknown at schema "\/properties\/sku\/format"/);
      assert.doesNotMatch(run.stdout, /accepted/);
    }
    // Not strict, an unknown format stays an annotation: the batch is admitted.
    const lenient = admit("--format-assertion");
    assert.equal(lenient.status, 0, lenient.stdout + lenient.stderr);
    assert.match(lenient.stdout, /2 accepted, 0 quarantined/);
  });

  test("format annotates by default: --strict-schema refuses an unknown one only with --format-assertion", () => {
    for (const extra of [[], ["--no-format-assertion"]]) {
      const annotation = admit("--strict-schema", ...extra);
      assert.equal(annotation.status, 0, annotation.stdout + annotation.stderr);
      assert.match(annotation.stdout, /2 accepted, 0 quarantined/);
    }
    const run = admit("--strict-schema", "--format-assertion");
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /cause +validation\/format_unknown at schema "\/properties\/sku\/format"/);
    const unused = admit(...sku);
    assert.equal(unused.status, 2, "a checker without --format-assertion would never run");
    assert.match(unused.stderr, /would check nothing: format is an annotation by default; add --format-assertion/);
  });

  test("--no-format-assertion with --format is a usage error: the checker would never run", () => {
    const run = admit("--no-format-assertion", ...sku);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /--format sku=\.\/sku\.mjs would check nothing: --no-format-assertion makes format an/);
  });

  test("a module that exports no default checker is a usage error, before anything is admitted", () => {
    const run = admit("--format-assertion", "--format", "sku=./named.mjs");
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--format sku=\.\/named\.mjs: \.\/named\.mjs must export default a checker/);
    assert.equal(run.stdout, "");
  });
});
