/** Evaluated marks (src/engine/evaluate/marks.ts): what is marked, O(1) reads, rollback by truncation, charged merges. */

import assert from "node:assert/strict";
import { test } from "node:test";
import { Marks, NameSetUnions } from "../../../src/engine/evaluate/marks.js";

class Meter {
  steps = 0;
  spend(n: number): void {
    this.steps += n;
  }
}

test("names come from static sets and single marks; the reading set is built once, one step per name in it", () => {
  const m = new Marks();
  const meter = new Meter();
  m.addNameSet(new Set(["a", "b"]));
  m.addProp("c");
  m.addProp("d");
  const marked = m.nameSet(meter);
  assert.equal(meter.steps, 4, "two single names and a set of two");
  const single = new Marks();
  const set = new Set(["a"]);
  single.addNameSet(set);
  assert.equal(single.nameSet(meter), set, "one static set and nothing else is read as it is");
  for (const name of ["a", "b", "c", "d"]) assert.equal(marked.has(name), true, name);
  assert.equal(marked.has("e"), false);
});

test("a union of static sets is built once per combination, charged the same on every reading, and bounded", () => {
  const [a, b, c] = [new Set(["a", "b"]), new Set(["b", "c"]), new Set(["d"])];
  const unions = new NameSetUnions(2);
  const read = (...sets: Set<string>[]) => {
    const m = new Marks();
    for (const set of sets) m.addNameSet(set);
    const meter = new Meter();
    return { names: m.nameSet(meter, unions), steps: meter.steps };
  };
  const first = read(a, b);
  assert.deepEqual([...first.names].sort(), ["a", "b", "c"]);
  assert.equal(first.steps, 4, "one step per name of each set taken in");
  const again = read(a, b);
  assert.equal(again.names, first.names, "the same sets in the same order: the union built before");
  assert.equal(again.steps, 4, "a reading costs the same whether or not the union was built before");
  assert.notEqual(read(b, a).names, first.names, "another order is another combination");
  const third = read(a, c);
  assert.deepEqual([...third.names].sort(), ["a", "b", "d"]);
  assert.notEqual(read(a, c).names, third.names, "beyond the capacity a combination is built on every reading");
  const withSingle = new Marks();
  withSingle.addNameSet(a);
  withSingle.addNameSet(b);
  withSingle.addProp("z");
  assert.deepEqual([...withSingle.nameSet(new Meter(), unions)].sort(), ["a", "b", "c", "z"], "single names count");
  const restored = new Marks();
  restored.addNameSet(a);
  const checkpoint = restored.save();
  restored.addNameSet(c);
  restored.restore(checkpoint);
  restored.addNameSet(b);
  assert.equal(restored.nameSet(new Meter(), unions), first.names, "the sets marked now, not those rolled back");
});

test("a checkpoint restores by truncation: what a failed branch marked is gone, what was before stays", () => {
  const m = new Marks();
  m.addProp("kept");
  m.addItem(1);
  m.prefix = 1;
  const saved = m.save();
  m.addProp("dropped");
  m.addNameSet(new Set(["x"]));
  m.addItem(5);
  m.prefix = 3;
  m.allItems = true;
  m.allProps = true;
  m.restore(saved);
  const meter = new Meter();
  const names = m.nameSet(meter);
  assert.deepEqual([...names], ["kept"]);
  assert.equal(names.has("x"), false);
  assert.deepEqual([...m.indexSet(meter)], [1]);
  assert.equal(m.prefix, 1);
  assert.equal(m.allItems, false);
  assert.equal(m.allProps, false);
});

test("merge takes in a valid subschema's marks, charging each one copied; 'all' supersedes single marks", () => {
  const into = new Marks();
  const from = new Marks();
  from.addNameSet(new Set(["a"]));
  from.addProp("b");
  from.prefix = 2;
  from.addItem(4);
  const meter = new Meter();
  into.merge(from, meter);
  assert.equal(meter.steps, 3, "one name set, one name, one index");
  const names = into.nameSet(new Meter());
  assert.equal(names.has("a"), true);
  assert.equal(names.has("b"), true);
  assert.equal(into.prefix, 2);
  assert.deepEqual([...into.indexSet(new Meter())], [4]);

  const all = new Marks();
  all.allProps = true;
  all.allItems = true;
  const after = new Meter();
  into.merge(all, after);
  into.merge(from, after);
  assert.equal(after.steps, 0, "nothing is copied once everything is evaluated");
  assert.equal(into.allProps && into.allItems, true);
});
