/**
 * The verdict fast path's one interpreter (README "Performance"): `check` tests a value against a node record
 * (fast-node.ts), charging the tally (tally.ts) what the accounted path could charge for it. A leaf is tested without
 * a call; an object's members in one walk over its own keys (for…in, no key list), each member given its declared
 * node, the node for the others, or the JSON data check; an array's items in one loop. A check goes on after a failure
 * (its spending must bound whatever the accounted path evaluates first) and gives up (UNKNOWN) on what it cannot
 * prove: a value that is not JSON data, a depth or size a limit could reach.
 */

import { hasOwn } from "../json/json.js";
import { MEMBER_UNITS, type FastNode } from "./fast-node.js";
import { tally, Verdict } from "./tally.js";
import { Bits, jsonBits, plain, walkBelow, walkMember } from "./values.js";

/** Tests `value` against `node` applied in place at `depth`: VALID, INVALID or UNKNOWN. */
export function check(node: FastNode, value: unknown, depth: number): number {
  if (node.leaf) {
    tally.steps += node.units;
    return testLeaf(node, value);
  }
  const accounted = node.accounted;
  if (accounted !== undefined) return accounted(value, depth);
  if (depth > node.maxDepth) return Verdict.UNKNOWN;
  const bits = jsonBits(value);
  if (bits === 0) return Verdict.UNKNOWN;
  tally.steps += node.units;
  if ((bits & node.mask) === 0) return Verdict.INVALID;
  const test = node.test;
  if (test !== undefined && !test(value, tally)) return Verdict.INVALID;
  let result: number = Verdict.VALID;
  const inPlace = node.inPlace;
  if (bits === Bits.OBJECT) {
    if (!plain(value as object)) return Verdict.UNKNOWN;
    if (node.names !== undefined) result = walkMembers(node, value as Record<string, unknown>, depth);
    else if (inPlace.length === 0) result = walkBelow(value as object, 1);
  } else if (bits === Bits.ARRAY) {
    if (node.items) result = walkItems(node, value as readonly unknown[], depth);
    else if (inPlace.length === 0) result = walkBelow(value as object, 1);
  }
  for (let i = 0; i < inPlace.length && result < Verdict.UNKNOWN; i++)
    result |= check(inPlace[i] as FastNode, value, depth + 1);
  return result >= Verdict.UNKNOWN ? Verdict.UNKNOWN : result;
}

/**
 * Tests `value` against a leaf: VALID, INVALID or UNKNOWN (not JSON data). Its assertions meter their work; an object
 * or array it accepts has the values below it checked as JSON data; its `units` are the caller's.
 */
function testLeaf(leaf: FastNode, value: unknown): number {
  const bits = jsonBits(value);
  if ((bits & leaf.mask) === 0) return bits === 0 ? Verdict.UNKNOWN : Verdict.INVALID;
  const test = leaf.test;
  if (test !== undefined && !test(value, tally)) return Verdict.INVALID;
  return (bits & (Bits.OBJECT | Bits.ARRAY)) === 0 ? Verdict.VALID : walkBelow(value as object, 1);
}

/** Applies `node` to `value`, a member of the value checked at `depth`, charging its entry. */
function member(node: FastNode, value: unknown, depth: number): number {
  if (node.leaf) {
    tally.steps += MEMBER_UNITS + node.units;
    return testLeaf(node, value);
  }
  tally.steps += MEMBER_UNITS;
  return check(node, value, depth + 1);
}

/**
 * An object's members against a node's members form. A key's slot is first the one the key at the same position had
 * in the last object (objects of one tool repeat their layout), else looked up and remembered. A member whose node
 * is a leaf of `type` alone is tested here, without a call.
 */
function walkMembers(node: FastNode, object: Record<string, unknown>, depth: number): number {
  const { nodes, required, additional, laidKeys, laidSlots } = node;
  let result: number = Verdict.VALID;
  let spent = 0;
  let keys = 0;
  let met = 0;
  for (const key in object) {
    if (!hasOwn(object, key)) continue;
    const slot = laidKeys[keys] === key ? (laidSlots[keys] as number) : layOut(node, key, keys);
    keys++;
    const value = object[key];
    const child = slot >= 0 ? (nodes[slot] as FastNode) : additional;
    if (slot >= 0 && required[slot] === true) met++;
    if (child === undefined) result |= walkMember(value);
    else if (child.typeOnly) {
      spent += MEMBER_UNITS + child.units;
      const bits = jsonBits(value);
      if ((bits & child.mask) === 0) result |= bits === 0 ? Verdict.UNKNOWN : Verdict.INVALID;
      else if ((bits & (Bits.OBJECT | Bits.ARRAY)) !== 0) result |= walkBelow(value as object, 1);
    } else result |= member(child, value, depth);
    if (result >= Verdict.UNKNOWN) return Verdict.UNKNOWN;
  }
  if (keys > node.maxKeys) return Verdict.UNKNOWN;
  tally.steps += spent + node.memberUnitsPerKey * keys;
  if (met !== node.requiredCount) result = Verdict.INVALID;
  const elsewhere = node.requiredElsewhere;
  for (let i = 0; i < elsewhere.length; i++) if (!hasOwn(object, elsewhere[i] as string)) result = Verdict.INVALID;
  return result;
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
function walkItems(node: FastNode, array: readonly unknown[], depth: number): number {
  const length = array.length;
  if (length > node.maxLength) return Verdict.UNKNOWN;
  const prefix = node.prefix;
  let result: number = Verdict.VALID;
  let i = 0;
  for (const end = Math.min(prefix.length, length); i < end && result < Verdict.UNKNOWN; i++)
    result |= member(prefix[i] as FastNode, array[i], depth);
  for (; i < node.from && i < length && result < Verdict.UNKNOWN; i++) result |= walkMember(array[i]);
  const rest = node.rest;
  if (rest === undefined) {
    for (; i < length && result < Verdict.UNKNOWN; i++) result |= walkMember(array[i]);
  } else if (rest.leaf) {
    if (i < length) tally.steps += (MEMBER_UNITS + rest.units) * (length - i);
    result |= testLeafItems(rest, array, i);
  } else {
    for (; i < length && result < Verdict.UNKNOWN; i++) result |= member(rest, array[i], depth);
  }
  return result >= Verdict.UNKNOWN ? Verdict.UNKNOWN : result;
}

/** The items of `array` from `from` on against a leaf, as `testLeaf` one by one (charged by the caller). */
function testLeafItems(leaf: FastNode, array: readonly unknown[], from: number): number {
  const { mask, test } = leaf;
  let result: number = Verdict.VALID;
  for (let i = from; i < array.length; i++) {
    const value = array[i];
    const bits = jsonBits(value);
    if ((bits & mask) === 0) {
      if (bits === 0) return Verdict.UNKNOWN;
      result = Verdict.INVALID;
      continue;
    }
    if (test !== undefined && !test(value, tally)) result = Verdict.INVALID;
    else if ((bits & (Bits.OBJECT | Bits.ARRAY)) !== 0 && walkBelow(value as object, 1) === Verdict.UNKNOWN)
      return Verdict.UNKNOWN;
  }
  return result;
}
