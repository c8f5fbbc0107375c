/**
 * The applicator helper (src/engine/evaluate/applicator.ts): one `apply` gives both paths. A toy keyword applying one
 * subschema to every member shows what the engine takes care of.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { applicator, type ApplicatorSpec } from "../../../src/engine/evaluate/applicator.js";
import { KeywordResult, rootResult } from "../../../src/engine/output/output.js";
import { Run, type Subschema } from "../../../src/engine/evaluate/run.js";
import { falseNode, leafNode } from "./nodes.js";
import { defaultLimits, LimitError } from "../../../src/index.js";

/** A subschema accepting numbers, with an annotation so passing children are kept in the output. */
const numbers = leafNode("n", (v) => typeof v === "number");
const nothing = falseNode;

/** A keyword result at the root, or at the root's member `at`. */
function unit(keyword: string, at?: string): KeywordResult {
  const root = rootResult();
  const owner = at === undefined ? root : new KeywordResult(root, "holder", "/holder", "").apply("", at);
  return new KeywordResult(owner, keyword, "/" + keyword, "");
}

function everyMember(node: Subschema, spec: Partial<ApplicatorSpec<Record<string, unknown>>> = {}) {
  return applicator<Record<string, unknown>>({
    keyword: "toy",
    on: "object",
    annotate: "keys",
    apply(instance, to) {
      for (const key of to.keys(instance)) if (!to.child(node, instance[key], key)) return false;
      return true;
    },
    ...spec,
  });
}

const run = (): Run => new Run(defaultLimits, false);

test("the type guard: other instances pass untouched on both paths", () => {
  const ev = everyMember(numbers);
  assert.equal(ev.test("text", run(), undefined), true);
  const out = unit("toy");
  assert.equal(ev.evaluate([1, "x"], run(), undefined, out), true);
  assert.deepEqual(out.children, []);
});

test("the boolean path stops at the first failure; the output path visits every member", () => {
  let visits = 0;
  const counting = leafNode("counting", (v) => (visits++, typeof v === "number"));
  const ev = everyMember(counting);
  assert.equal(ev.test({ a: "x", b: "y", c: 1 }, run(), undefined), false);
  assert.equal(visits, 1);
  const out = unit("toy");
  assert.equal(ev.evaluate({ a: "x", b: 2, c: "z" }, run(), undefined, out), false);
  assert.deepEqual(
    out.children.map((c) => [c.instanceLocation, c.valid]),
    [
      ["/a", false],
      ["/b", true],
      ["/c", false],
    ],
  );
  assert.equal(out.hasAnnotation, false, "a failing keyword annotates nothing");
});

test("a passing keyword annotates the keys it applied to; failuresOnly drops passing children", () => {
  const out = unit("toy");
  assert.equal(everyMember(numbers).evaluate({ a: 1, b: 2 }, run(), undefined, out), true);
  assert.deepEqual([out.hasAnnotation, out.annotation], [true, ["a", "b"]]);
  const quiet = unit("toy");
  everyMember(numbers, { failuresOnly: true, annotate: undefined }).evaluate({ a: 1, b: "x" }, run(), undefined, quiet);
  assert.deepEqual(
    quiet.children.map((c) => c.instanceLocation),
    ["/b"],
  );
  assert.equal(quiet.hasAnnotation, false);
});

test("against false with quietFalse, describe alone reports the members (no child result each)", () => {
  const out = unit("toy");
  const ev = everyMember(nothing, {
    quietFalse: true,
    describe: (failed) => ({ message: `rejected ${failed.join(",")}`, params: { additional: failed as string[] } }),
  });
  assert.equal(ev.evaluate({ a: 1, b: 2 }, run(), undefined, out), false);
  assert.deepEqual([out.children, out.error, out.params], [[], "rejected a,b", { additional: ["a", "b"] }]);
});

test("size limits are checked where members are listed, with the instance location on the output path", () => {
  const small = new Run({ ...defaultLimits, maxObjectProperties: 1 }, false);
  const out = unit("toy", "deep");
  assert.throws(
    () => everyMember(numbers).evaluate({ a: 1, b: 2 }, small, undefined, out),
    (e: unknown) => e instanceof LimitError && e.limit === "maxObjectProperties" && e.instancePointer === "/deep",
  );
});

test("largest-index annotates the last index applied, or true when every item was", () => {
  const prefix = (n: number) =>
    applicator<unknown[]>({
      keyword: "toy",
      on: "array",
      annotate: "largest-index",
      apply(instance, to) {
        for (let i = 0; i < Math.min(n, instance.length); i++) if (!to.child(numbers, instance[i], i)) return false;
        return true;
      },
    });
  const some = unit("toy");
  prefix(2).evaluate([1, 2, 3], run(), undefined, some);
  assert.equal(some.annotation, 1);
  const all = unit("toy");
  prefix(5).evaluate([1, 2, 3], run(), undefined, all);
  assert.equal(all.annotation, true);
});
