/**
 * Issue 31 #8: the CLI never gives a verdict on a number it rounded. A literal a double does not hold (read as the
 * engine reads a double: an integral one as the integer it holds, any other as its shortest decimal) is refused with
 * exit 2, naming the literal, its line, column and pointer; every other literal is checked as the number it writes.
 */

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Decimal } from "decimal.js";
import fc from "fast-check";
import { inexactNumber } from "../../src/cli/exact-numbers.js";
import { runCli, type CliRun } from "./helpers.js";

let dir = "";
const write = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), "backplane-numbers-"));
});
after(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

/** Exit 2, nothing on stdout, one line naming what `mentions` says. */
function assertRefused(run: CliRun, mentions: string): void {
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^backplane-schema: [^\n]+\n$/);
  assert.ok(run.stderr.includes(mentions), run.stderr);
  assert.match(run.stderr, /; the CLI refuses it rather than give a verdict on a rounded number\n$/);
}

describe("the issue's three repros, through validate", () => {
  test('{"enum":[9007199254740993]} no longer accepts 9007199254740992: the schema is refused', () => {
    const schema = write("enum.json", '{"enum":[9007199254740993]}');
    const run = runCli(["validate", schema, write("n.json", "9007199254740992")]);
    assertRefused(
      run,
      `schema ${schema} has the number 9007199254740993 at line 1, column 10 (at /enum/0), which a double cannot ` +
        "hold: it would be read as 9007199254740992",
    );
  });

  test("exclusiveMaximum 9007199254740993 is refused instead of refusing 9007199254740992 as not less than itself", () => {
    const schema = write("max.json", '{\n  "exclusiveMaximum": 9007199254740993\n}\n');
    const run = runCli(["validate", schema, write("n2.json", "9007199254740992")]);
    assertRefused(run, "the number 9007199254740993 at line 2, column 23 (at /exclusiveMaximum)");
    assert.doesNotMatch(run.stderr, /must be less than/);
  });

  test("1e400 is refused as overflowing to Infinity, not reported as 'got number' against type integer", () => {
    const schema = write("integer.json", '{"type":"integer"}');
    const run = runCli(["validate", schema, write("big.json", "1e400")]);
    assertRefused(
      run,
      "big.json has the number 1e400 at line 1, column 1 (the root), which a double cannot hold: it would be read as Infinity",
    );
    assert.doesNotMatch(run.stderr, /got number/);
  });
});

describe("where the CLI reads JSON", () => {
  test("an instance on stdin, a decimal that rounds, a tiny number that underflows, a key that needs quoting", () => {
    const schema = write("any.json", "{}");
    assertRefused(
      runCli(["validate", schema, "-"], { input: '{"a b": [1, 0.30000000000000000001]}' }),
      'instance <stdin> has the number 0.30000000000000000001 at line 1, column 13 (at "/a b/1"), which a double ' +
        "cannot hold: it would be read as 0.3",
    );
    assertRefused(runCli(["validate", schema, "-"], { input: "[1e-400]" }), "it would be read as 0;");
  });

  test("a tool schema in a catalog: admit refuses the catalog (its pins would hold another number)", () => {
    const tool = '{"name":"t","revision":"1","inputSchema":{"type":"object","properties":{"n":{"maximum":1e308}}}}';
    const run = runCli(["admit", write("catalog.json", `[${tool}]`)]);
    assertRefused(run, "(at /0/inputSchema/properties/n/maximum)");
    assert.ok(run.stderr.includes("it would be read as 1.00000000000000001097…e+308"), run.stderr);
  });

  test("numbers a double holds are checked exactly as written, at and around 2^53", () => {
    const enumeration = write("exact.json", '{"enum": [9007199254740992, 1152921504606846976, 0.1]}');
    const tenths = write("tenths.json", '{"multipleOf": 0.1}');
    const bound = write("bound.json", '{"exclusiveMaximum": 9007199254740992}');
    for (const [schema, instance, status] of [
      [enumeration, "9007199254740992", 0],
      [enumeration, "1152921504606846976", 0], // 2^60, held exactly
      [enumeration, "0.1", 0],
      [enumeration, "9007199254740994", 1], // 2^53 + 2, held exactly, not in the enum
      [tenths, "0.3", 0],
      [tenths, "0.35", 1],
      [bound, "9007199254740991", 0],
      [bound, "9007199254740992.0", 1],
    ] as const) {
      const run = runCli(["validate", schema, write("i.json", instance)]);
      assert.equal(run.status, status, `${schema} ${instance}: ${run.stdout}${run.stderr}`);
    }
  });
});

describe("inexactNumber", () => {
  test("finds the first literal a double does not hold, with its line, column (code points) and pointer", () => {
    assert.equal(inexactNumber('{"a": [1, 2.5, -0, 1e2, 5e-324, 9007199254740992, "1e400"]}'), undefined);
    assert.deepEqual(inexactNumber('{\n "é€😀": {"~/": [0, 12345678901234567890]}}'), {
      literal: "12345678901234567890",
      readAs: "12345678901234567168",
      line: 2,
      column: 20,
      pointer: "/é€😀/~0~1/1",
    });
    assert.equal(inexactNumber('[{"a\\"": 1}, {"b\\\\": -1e400}]')?.pointer, "/1/b\\");
    assert.equal(inexactNumber("[-1e400]")?.readAs, "-Infinity");
    assert.equal(inexactNumber("1" + "0".repeat(400))?.literal, "1" + "0".repeat(38) + "…");
  });

  test("its verdict is decimal.js's: the literal equals the value the engine reads from the double", () => {
    const Exact = Decimal.clone({ precision: 1_000 });
    const reading = (n: number): string => (Number.isInteger(n) ? BigInt(n).toString() : String(n));
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));
    const literal = fc.oneof(
      fc
        .tuple(
          fc.constantFrom("", "-"),
          fc.oneof(
            fc.constant("0"),
            fc.tuple(fc.constantFrom(..."123456789"), digits(0, 25)).map(([a, b]) => a + b),
          ),
          fc.option(digits(1, 25).map((d) => "." + d)),
          fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3))),
        )
        .map(([sign, int, fraction, exp]) => sign + int + (fraction ?? "") + (exp === null ? "" : exp.join(""))),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    );
    fc.assert(
      fc.property(literal, (text) => {
        const value = Number(text);
        const held = Number.isFinite(value) && new Exact(text).equals(new Exact(reading(value)));
        assert.equal(inexactNumber(`{"x": [${text}]}`) === undefined, held, text);
      }),
      { numRuns: 3_000 },
    );
  });
});
