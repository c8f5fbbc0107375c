/**
 * The verdict fast path's one interpreter (docs/project/performance.md "The verdict fast path"): `check` tests a value
 * against a node record (fast-node.ts), charging the tally it is given (tally.ts: one per run, threaded through every
 * check) what the accounted path could charge for it. A
 * leaf is tested without a call; an object's members in one walk over its own keys (for…in, no key list), each member
 * given its declared node, the node for the others, or the JSON data check; an array's items in one loop. A check goes
 * on after a failure (its spending must bound whatever the accounted path evaluates first) and gives up (UNKNOWN) on
 * what it cannot prove: a value that is not JSON data, a depth or size a limit could reach.
 */

import { isInstance, LimitError } from "../errors.js";
import { hasOwn } from "../json/json.js";
import type { CompiledPattern } from "../regex/index.js";
import { DATA, INLINE, MEMBER_UNITS, REQUIRED, UNITS_SHIFT, type FastChoice, type FastNode } from "./fast-node.js";
import { accounted } from "./accounted.js";
import { type Tally, Verdict } from "./tally.js";
import { Bits, jsonBits, plain, walkBelow, walkMember } from "./values.js";

/**
 * Checks `value` against the root `node` on `tally`, from nothing spent (and `checked`: see tally.ts): VALID,
 * INVALID, or UNKNOWN when the answer is not proven (a limit an assertion meets, or more spent than the budget). A
 * stack overflow (limits set far above the defaults) is UNKNOWN too: the accounted path reports it as the limit it is.
 */
export function decide(tally: Tally, node: FastNode, value: unknown, checked: boolean): number {
  tally.checked = checked;
  tally.steps = 0;
  tally.active = true;
  try {
    const result = check(tally, node, value, 0);
    return tally.steps > tally.maxSteps ? Verdict.UNKNOWN : result;
  } catch (e) {
    // Anything else is the host's and goes on.
    if (e instanceof RangeError || isInstance(e, LimitError)) return Verdict.UNKNOWN;
    throw e;
  } finally {
    tally.active = false;
    tally.next = undefined;
    tally.nextValue = undefined;
  }
}

/**
 * Tests `value` against `node` applied in place at `depth`: VALID, INVALID or UNKNOWN. One member whose node is not a
 * leaf is left by each object's walk to this loop (`tally.next`), so a chain of single-member objects is checked level
 * after level without a call per level.
 */
function check(tally: Tally, node: FastNode, value: unknown, depth: number): number {
  let result: number = Verdict.VALID;
  for (;;) {
    // Past the budget nothing can be decided here: give up at once rather than after the rest of the instance.
    if (tally.steps > tally.maxSteps) result = Verdict.UNKNOWN;
    else result |= node.simple ? checkSimple(tally, node, value, depth) : checkOne(tally, node, value, depth);
    const next = tally.next;
    if (next === undefined) return result >= Verdict.UNKNOWN ? Verdict.UNKNOWN : result;
    const nextValue = tally.nextValue;
    tally.next = undefined;
    tally.nextValue = undefined;
    if (result >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
    node = next;
    value = nextValue;
    depth++;
  }
}

/**
 * A `simple` object node on a shorter path than `checkOne`'s, to the same effect: no type bits, assertion or node in
 * place to look at, its members walked at once.
 */
function checkSimple(tally: Tally, node: FastNode, value: unknown, depth: number): number {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return checkOne(tally, node, value, depth);
  if (depth > node.maxDepth) return Verdict.UNKNOWN;
  // plain(value), written out: V8 leaves the call there (Object.getPrototypeOf is most of its cost).
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return Verdict.UNKNOWN;
  tally.steps += node.units;
  return walkSimple(tally, node, value as Record<string, unknown>, depth);
}

/**
 * A `simple` node's members (declared names, no pattern, the others refused or checked as JSON data), in a for…in of
 * its own. V8 makes a for…in generic for good once it has walked one object in dictionary mode, which a node of many
 * names or of patterns is the likely one to meet (`walkMembers` takes those): sharing one loop with them cost the
 * hot set a sixth (`npm run bench -- --only hot-set`, 2026-12-07). A member whose node is an `inline` leaf is
 * tested here without a call; the first whose node is not a leaf is left to `check`'s loop (`tally.next`).
 */
function walkSimple(tally: Tally, node: FastNode, object: Record<string, unknown>, depth: number): number {
  const { names, nodes, slots, closed, maxKeys, index } = node;
  let result: number = Verdict.VALID;
  let spent = 0;
  let keys = 0;
  let met = 0;
  let next: FastNode | undefined;
  let nextValue: unknown;
  for (const key in object) {
    if (!hasOwn(object, key)) continue;
    const slot =
      index === undefined
        ? slotOf(names as readonly string[], key)
        : node.laidKeys[keys] === key
          ? (node.laidSlots[keys] as number)
          : layOut(node, key, keys);
    if (++keys > maxKeys) return Verdict.UNKNOWN;
    const value = object[key];
    if (slot < 0) {
      // Refused (the `false` schema, entered: a step, its own, the value), or only checked as JSON data.
      if (closed) {
        spent += MEMBER_UNITS + 1;
        result |= Verdict.INVALID;
      } else result |= walkMember(tally, value);
    } else {
      const info = slots[slot] as number;
      if ((info & REQUIRED) !== 0) met++;
      if ((info & INLINE) !== 0) {
        // An inline leaf, from its entry alone unless it tests data besides its type (`inlineMember`'s test).
        spent += info >>> UNITS_SHIFT;
        const bits = jsonBits(value);
        if ((bits & info) === 0) result |= bits === 0 ? Verdict.UNKNOWN : Verdict.INVALID;
        else if ((info & DATA) !== 0 && !dataHolds(nodes[slot] as FastNode, value)) result |= Verdict.INVALID;
        else if ((bits & (Bits.OBJECT | Bits.ARRAY)) !== 0) result |= walkBelow(tally, value as object, 1);
      } else if (next === undefined && !(nodes[slot] as FastNode).leaf) {
        spent += MEMBER_UNITS;
        next = nodes[slot];
        nextValue = value;
      } else result |= member(tally, nodes[slot] as FastNode, value, depth);
    }
    if (result >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
  }
  tally.steps += spent + node.memberUnitsPerKey * keys;
  if (!requiredMet(node, object, met)) result = Verdict.INVALID;
  if (next !== undefined) {
    tally.next = next;
    tally.nextValue = nextValue;
  }
  return result;
}

/** The slot of `key` among a few declared names, compared one by one; -1 when it is none of them. */
function slotOf(names: readonly string[], key: string): number {
  for (let i = 0; i < names.length; i++) if (names[i] === key) return i;
  return -1;
}

/** One node's own checks: its assertions, members or items, and what it applies in place. */
function checkOne(tally: Tally, node: FastNode, value: unknown, depth: number): number {
  if (node.leaf) {
    tally.steps += node.units;
    return testLeaf(tally, node, value);
  }
  if (node.accounted !== undefined) return accounted(tally, node.accounted, value, depth);
  if (depth > node.maxDepth) return Verdict.UNKNOWN;
  const bits = jsonBits(value);
  if (bits === 0) return Verdict.UNKNOWN;
  tally.steps += node.units;
  if ((bits & node.mask) === 0) return Verdict.INVALID;
  if (!holds(tally, node, value)) return Verdict.INVALID;
  // Nothing applied in place: an object or array not walked below is walked as JSON data here.
  const alone = node.inPlace.length === 0 && node.choices.length === 0 && node.condition === undefined;
  if (bits === Bits.OBJECT) {
    if (!plain(value as object)) return Verdict.UNKNOWN;
    if (node.names !== undefined) {
      const result = walkMembers(tally, node, value as Record<string, unknown>, depth);
      if (alone || result >= Verdict.UNKNOWN) return result;
      // What the walk left for the loop waits while the nodes in place are checked (they use the loop too).
      const { next, nextValue } = tally;
      tally.next = undefined;
      const rest = result | appliedResult(tally, node, value, depth);
      tally.next = next;
      tally.nextValue = nextValue;
      return rest;
    }
    if (alone) return walkBelow(tally, value as object, 1);
  } else if (bits === Bits.ARRAY) {
    const array = value as readonly unknown[];
    if (node.items || node.contains !== undefined) {
      let result = node.items ? walkItems(tally, node, array, depth) : Verdict.VALID;
      if (node.contains !== undefined && result < Verdict.UNKNOWN) result |= countContains(tally, node, array, depth);
      return alone || result >= Verdict.UNKNOWN ? result : result | appliedResult(tally, node, value, depth);
    }
    if (alone) return walkBelow(tally, value as object, 1);
  }
  return appliedResult(tally, node, value, depth);
}

/**
 * The nodes applied to `value` in place, one level deeper: all of `inPlace`, of each choice as many as it asks, and
 * the branch a condition selects. Every node is checked, whatever the others answered (the accounted path stops
 * sooner), and one that passes has looked through the value as JSON data; a choice or condition that passes with no
 * node passing (`not`, `if` without `else`) walks the value itself.
 */
function appliedResult(tally: Tally, node: FastNode, value: unknown, depth: number): number {
  const { inPlace, choices } = node;
  let result: number = Verdict.VALID;
  for (let i = 0; i < inPlace.length && result < Verdict.UNKNOWN; i++)
    result |= check(tally, inPlace[i] as FastNode, value, depth + 1);
  for (let c = 0; c < choices.length && result < Verdict.UNKNOWN; c++) {
    const { nodes, least, most } = choices[c] as FastChoice;
    let passed = 0;
    for (let i = 0; i < nodes.length; i++) {
      const answer = check(tally, nodes[i] as FastNode, value, depth + 1);
      if (answer >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
      if (answer === Verdict.VALID) passed++;
    }
    if (passed < least || passed > most) result = Verdict.INVALID;
    else if (passed === 0) result |= walkMember(tally, value);
  }
  const condition = node.condition;
  if (condition !== undefined && result < Verdict.UNKNOWN) {
    const matched = check(tally, condition.if, value, depth + 1);
    if (matched >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
    const branch = matched === Verdict.VALID ? condition.then : condition.else;
    if (branch !== undefined) result |= check(tally, branch, value, depth + 1);
    else if (matched !== Verdict.VALID) result |= walkMember(tally, value);
  }
  return result >= Verdict.UNKNOWN ? Verdict.UNKNOWN : result;
}

/**
 * Tests `value` against a leaf: VALID, INVALID or UNKNOWN (not JSON data). Its assertions meter their work; an object
 * or array it accepts has the values below it checked as JSON data; its `units` are the caller's.
 */
function testLeaf(tally: Tally, leaf: FastNode, value: unknown): number {
  const bits = jsonBits(value);
  if ((bits & leaf.mask) === 0) return bits === 0 ? Verdict.UNKNOWN : Verdict.INVALID;
  if (!holds(tally, leaf, value)) return Verdict.INVALID;
  return (bits & (Bits.OBJECT | Bits.ARRAY)) === 0 ? Verdict.VALID : walkBelow(tally, value as object, 1);
}

/** Whether a value (JSON data, of the node's types) passes the node's bounds, list and other assertions. */
function holds(tally: Tally, node: FastNode, value: unknown): boolean {
  if (!dataHolds(node, value)) return false;
  const test = node.test;
  return test === undefined || test(value, tally);
}

/** Whether a value passes the node's assertions told as data: its numeric bounds and its list of scalars. */
function dataHolds(node: FastNode, value: unknown): boolean {
  if (node.ranged && typeof value === "number" && !within(node, value)) return false;
  return !node.listed || listedIn(node.values, value);
}

/** Whether a value is `===` one of a list of JSON scalars (JSON equality between scalars). */
function listedIn(values: readonly unknown[], value: unknown): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === value) return true;
  return false;
}

/** Whether a number is within a node's bounds. */
function within(node: FastNode, n: number): boolean {
  return n >= node.atLeast && n > node.above && n <= node.atMost && n < node.below;
}

/** Applies `node` to `value`, a member of the value checked at `depth`, charging its entry. */
function member(tally: Tally, node: FastNode, value: unknown, depth: number): number {
  if (node.leaf) {
    tally.steps += MEMBER_UNITS + node.units;
    return testLeaf(tally, node, value);
  }
  tally.steps += MEMBER_UNITS;
  return check(tally, node, value, depth + 1);
}

/**
 * An object's members against a node's members form, in one for…in walk over its own keys (no key list). A key's
 * slot is first the one the key at the same position had in the last object (objects of one tool repeat their
 * layout), else looked up and remembered. Each member is given its declared node, the nodes of the patterns its name
 * matches, the node for the others, or the JSON data check. A member whose node is an `inline` leaf is tested
 * here, without a call; the first whose node is not a leaf is left to `check`'s loop (`tally.next`).
 */
function walkMembers(tally: Tally, node: FastNode, object: Record<string, unknown>, depth: number): number {
  const { nodes, required, additional, laidKeys, laidSlots, patterns } = node;
  let result: number = Verdict.VALID;
  let spent = 0;
  let keys = 0;
  let met = 0;
  let next: FastNode | undefined;
  let nextValue: unknown;
  for (const key in object) {
    if (!hasOwn(object, key)) continue;
    const slot = laidKeys[keys] === key ? (laidSlots[keys] as number) : layOut(node, key, keys);
    if (++keys > node.maxKeys) return Verdict.UNKNOWN;
    const value = object[key];
    let matched = false;
    for (let p = 0; p < patterns.length; p++) {
      if (!(patterns[p] as CompiledPattern).test(key, tally)) continue;
      matched = true;
      result |= member(tally, node.patternNodes[p] as FastNode, value, depth);
    }
    if (slot >= 0 && required[slot] === true) met++;
    const child = slot >= 0 ? (nodes[slot] as FastNode) : matched ? undefined : additional;
    if (child === undefined) {
      if (!matched) result |= walkMember(tally, value);
    } else if (child.inline) {
      spent += MEMBER_UNITS + child.units;
      result |= inlineMember(tally, child, value);
    } else if (next === undefined && !child.leaf) {
      spent += MEMBER_UNITS;
      next = child;
      nextValue = value;
    } else result |= member(tally, child, value, depth);
    if (result >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
  }
  tally.steps += spent + node.memberUnitsPerKey * keys;
  if (!requiredMet(node, object, met)) result = Verdict.INVALID;
  if (next !== undefined) {
    tally.next = next;
    tally.nextValue = nextValue;
  }
  return result;
}

/**
 * A member whose node is an `inline` leaf, as `testLeaf` tests it, without a call of its own where V8 inlines this
 * (its units charged by the walk).
 */
function inlineMember(tally: Tally, child: FastNode, value: unknown): number {
  const bits = jsonBits(value);
  if ((bits & child.mask) === 0) return bits === 0 ? Verdict.UNKNOWN : Verdict.INVALID;
  if (!dataHolds(child, value)) return Verdict.INVALID;
  return (bits & (Bits.OBJECT | Bits.ARRAY)) !== 0 ? walkBelow(tally, value as object, 1) : Verdict.VALID;
}

/** Whether an object walked has every required name: `met` of the declared ones, and each required elsewhere. */
function requiredMet(node: FastNode, object: Record<string, unknown>, met: number): boolean {
  if (met !== node.requiredCount) return false;
  const elsewhere = node.requiredElsewhere;
  for (let i = 0; i < elsewhere.length; i++) if (!hasOwn(object, elsewhere[i] as string)) return false;
  return true;
}

/** Positions of an object's keys remembered (per node). */
const LAID_OUT_KEYS = 1024;

/** The slot of `key`, found at `position` of an object of another layout: looked up, and remembered there. */
function layOut(node: FastNode, key: string, position: number): number {
  let slot = -1;
  const index = node.index;
  if (index !== undefined) slot = index.get(key) ?? -1;
  else {
    const names = node.names as readonly string[];
    for (let i = 0; i < names.length; i++) {
      if (names[i] === key) {
        slot = i;
        break;
      }
    }
  }
  if (position < LAID_OUT_KEYS) {
    node.laidKeys[position] = key;
    node.laidSlots[position] = slot;
  }
  return slot;
}

/** An array's items against a node's items form. */
function walkItems(tally: Tally, node: FastNode, array: readonly unknown[], depth: number): number {
  const length = array.length;
  if (length > node.maxLength) return Verdict.UNKNOWN;
  const prefix = node.prefix;
  let result: number = Verdict.VALID;
  let i = 0;
  for (const end = Math.min(prefix.length, length); i < end && result < Verdict.UNKNOWN; i++)
    result |= member(tally, prefix[i] as FastNode, array[i], depth);
  for (; i < node.from && i < length && result < Verdict.UNKNOWN; i++) result |= walkMember(tally, array[i]);
  const rest = node.rest;
  if (rest === undefined) {
    for (; i < length && result < Verdict.UNKNOWN; i++) result |= walkMember(tally, array[i]);
  } else if (rest.leaf) {
    if (i < length) tally.steps += (MEMBER_UNITS + rest.units) * (length - i);
    if (tally.steps > tally.maxSteps) return Verdict.UNKNOWN;
    result |= testLeafItems(tally, rest, array, i);
  } else {
    for (; i < length && result < Verdict.UNKNOWN; i++) result |= member(tally, rest, array[i], depth);
  }
  return result >= Verdict.UNKNOWN ? Verdict.UNKNOWN : result;
}

/**
 * The items of an array counted against a node's `contains`: each tried (the accounted path may stop sooner), and an
 * item it does not accept checked as JSON data on its own (the node need not have looked through it).
 */
function countContains(tally: Tally, node: FastNode, array: readonly unknown[], depth: number): number {
  if (array.length > node.maxLength) return Verdict.UNKNOWN;
  const contains = node.contains as FastNode;
  let count = 0;
  if (contains.leaf) count = countLeafMatches(tally, contains, array);
  else
    for (let i = 0; i < array.length; i++) {
      const found = member(tally, contains, array[i], depth);
      if (found === Verdict.VALID) count++;
      else if (found >= Verdict.UNKNOWN || walkMember(tally, array[i]) >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
    }
  if (count < 0) return Verdict.UNKNOWN;
  return count >= node.minContains && count <= node.maxContains ? Verdict.VALID : Verdict.INVALID;
}

/**
 * How many items of `array` a leaf `contains` accepts, as `countContains` counts them item by item (each charged as a
 * member, an item the leaf refuses checked as JSON data on its own), in one loop; -1 for UNKNOWN.
 */
function countLeafMatches(tally: Tally, leaf: FastNode, array: readonly unknown[]): number {
  const mask = leaf.mask;
  tally.steps += (MEMBER_UNITS + leaf.units) * array.length;
  let count = 0;
  // The JSON data checks of the scalars the leaf refuses (walkMember's step each), charged once after the loop.
  let checked = 0;
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    const bits = jsonBits(value);
    if (bits === 0) return -1;
    const accepted = (bits & mask) !== 0 && holds(tally, leaf, value);
    if ((bits & (Bits.OBJECT | Bits.ARRAY)) === 0) {
      if (accepted) count++;
      else checked++;
    } else if (accepted) {
      if (walkBelow(tally, value as object, 1) === Verdict.UNKNOWN) return -1;
      count++;
    } else if (walkMember(tally, value) === Verdict.UNKNOWN) return -1;
  }
  tally.steps += checked;
  return count;
}

/** The items of `array` from `from` on against a leaf, as `testLeaf` one by one (charged by the caller). */
function testLeafItems(tally: Tally, leaf: FastNode, array: readonly unknown[], from: number): number {
  if (leaf.ranged && leaf.test === undefined && !leaf.listed) return testRangeItems(tally, leaf, array, from);
  let result: number = Verdict.VALID;
  for (let i = from; i < array.length; i++) {
    const answer = testLeaf(tally, leaf, array[i]);
    if (answer === Verdict.UNKNOWN) return Verdict.UNKNOWN;
    result |= answer;
  }
  return result;
}

/**
 * `testLeafItems` for a leaf of `type` and numeric bounds alone: the bounds read once for the whole array, so that
 * its numbers cost no call each (a call a host's many schemas would make megamorphic).
 */
function testRangeItems(tally: Tally, leaf: FastNode, array: readonly unknown[], from: number): number {
  const { mask, atLeast, above, atMost, below } = leaf;
  let result: number = Verdict.VALID;
  for (let i = from; i < array.length; i++) {
    const value = array[i];
    if (typeof value === "number") {
      // jsonBits written out (through the call, 1,000 ranged integers cost 2.2 µs against 1.4 µs), then every
      // bound: an infinite one passes every finite number, a NaN one fails them all.
      if (Number.isInteger(value)) {
        if ((mask & (Bits.INTEGER | Bits.NUMBER)) === 0) result = Verdict.INVALID;
      } else if (value - value !== 0) return Verdict.UNKNOWN;
      else if ((mask & Bits.NUMBER) === 0) result = Verdict.INVALID;
      if (!(value >= atLeast && value > above && value <= atMost && value < below)) result = Verdict.INVALID;
      continue;
    }
    // Any other value: the bounds pass it, the type may not, and what is below it is JSON data or not.
    const answer = testLeaf(tally, leaf, value);
    if (answer === Verdict.UNKNOWN) return Verdict.UNKNOWN;
    result |= answer;
  }
  return result;
}
