/**
 * The verdict fast path's schema nodes as data: one record type for every node, so that the functions testing them
 * (check.ts) read every field at one offset, whatever schema the record comes from. A leaf (assertions only) has no
 * members, items or in-place nodes; a node the fast path does not cover is run on the accounted path instead.
 */

import type { Meter, Subschema } from "../evaluate/run.js";
import { UNBOUNDED } from "../evaluate/verdict-forms.js";
import type { CompiledPattern } from "../regex/index.js";

export interface FastNode {
  /** Assertions only: members and items are the JSON data check's, nothing is applied in place. */
  leaf: boolean;
  /**
   * A leaf whose assertions are all data (`type`, numeric bounds, a list of scalars; no `test`): tested inline by the
   * walks, without a call.
   */
  inline: boolean;
  /** A leaf whose assertions charge nothing and read no limit. */
  pure: boolean;
  /**
   * An object node of declared names (fewer than 128) and nothing else (no other assertion, pattern, items or node
   * in place; other members unchecked or refused): check.ts walks it on a shorter path.
   */
  simple: boolean;
  /** With `simple`: members not declared are refused (`additionalProperties: false`). */
  closed: boolean;
  /** The `type` mask (json/types.ts bits): `ANY` without `type`, `NEVER` for the `false` schema. */
  mask: number;
  /** The other assertions, composed, metering their work (`Meter`); undefined when there are none. */
  test: ((value: unknown, meter: Meter) => boolean) | undefined;
  /**
   * Its numeric bounds as data, tested inline (`ranged`): a number must be within them, whatever calls it (no call a
   * host's many schemas would make megamorphic).
   */
  ranged: boolean;
  atLeast: number;
  above: number;
  atMost: number;
  below: number;
  /** A list of JSON scalars as data (`enum`, `const`), tested inline (`listed`): a value must be `===` one of them. */
  listed: boolean;
  values: readonly unknown[];
  /**
   * Units charged for any value when applied in place: the keywords' steps on entry and the members form's fixed
   * steps (the assertions meter their own). A member's entry adds `MEMBER_UNITS`.
   */
  units: number;
  /** The deepest application checked here (deeper: UNKNOWN). */
  maxDepth: number;

  /** Declared member names and what applies to each (undefined: no members form). */
  names: readonly string[] | undefined;
  nodes: readonly FastNode[];
  required: readonly boolean[];
  /**
   * Each declared name's member as one small integer (`slotInfo`), so that a walk reads one array for it: the child's
   * type mask, whether the name is required, whether the child is `inline` and tests data besides its type, and the
   * units its entry charges.
   */
  slots: readonly number[];
  requiredCount: number;
  requiredElsewhere: readonly string[];
  /** Patterns each member name is tested against, and what applies to the names each matches. */
  patterns: readonly CompiledPattern[];
  patternNodes: readonly FastNode[];
  /** What applies to members neither declared nor matched: undefined for the JSON data check alone. */
  additional: FastNode | undefined;
  /** Steps charged per own key of an object by the members form. */
  memberUnitsPerKey: number;
  /**
   * Member slots by the position of their key in the last objects (`laidKeys`, `laidSlots`, rewritten as objects
   * come); a key elsewhere is looked up in `index` (many names) or compared with each name (a few).
   */
  index: ReadonlyMap<string, number> | undefined;
  laidKeys: string[];
  laidSlots: number[];
  maxKeys: number;

  /** Whether it has an items form, the nodes by index, the node from `from` on. */
  items: boolean;
  prefix: readonly FastNode[];
  rest: FastNode | undefined;
  from: number;
  maxLength: number;

  /** What items are counted against (`contains`), and how many must pass. */
  contains: FastNode | undefined;
  minContains: number;
  maxContains: number;

  /** Nodes applied to the value in place, all of which must pass. */
  inPlace: readonly FastNode[];
  /** Nodes applied to the value in place, of which a number must pass (`anyOf`, `oneOf`, `not`). */
  choices: readonly FastChoice[];
  /** A node applied to the value in place that selects which other applies (`if`, `then`, `else`). */
  condition: FastCondition | undefined;
  /** A node the fast path does not cover: run on the accounted path inside the fast one (accounted.ts). */
  accounted: Subschema | undefined;
}

/** `if`, `then` and `else`: `then` applies when `if` passes, `else` when it does not; a branch not given passes. */
interface FastCondition {
  readonly if: FastNode;
  readonly then: FastNode | undefined;
  readonly else: FastNode | undefined;
}

/** Nodes applied to the value in place, from `least` to `most` of which must pass. */
export interface FastChoice {
  readonly nodes: readonly FastNode[];
  readonly least: number;
  readonly most: number;
}

/** Every JSON type's bits: a node without `type`. */
export const ANY = 0x7f;
/** No value's bits: the `false` schema. */
export const NEVER = 0;
/** Units of entering a member, besides the member's node: its step on the accounted path, and the value itself. */
export const MEMBER_UNITS = 2;

/** `slots`: the name is required (the low 7 bits are the child's mask, when it is `inline`). */
export const REQUIRED = 0x80;
/** `slots`: the child is `inline`. */
export const INLINE = 0x100;
/** `slots`: the child is `inline` with assertions told as data besides its type (`dataHolds` reads the record). */
export const DATA = 0x200;
/** `slots`: the shift of the units entering an `inline` child charges (`MEMBER_UNITS` and its own). */
export const UNITS_SHIFT = 10;

/** A member's `slots` entry, from its node and whether its name is required. */
export function slotInfo(child: FastNode, required: boolean): number {
  const flag = required ? REQUIRED : 0;
  if (!child.inline) return flag;
  const data = child.ranged || child.listed ? DATA : 0;
  return flag | INLINE | data | child.mask | ((MEMBER_UNITS + child.units) << UNITS_SHIFT);
}

/** The empty list of every read-only field not given (the written ones, `laidKeys` and `laidSlots`, get their own). */
const NONE: readonly never[] = [];

/** A record with every field set, so that all records share one layout. */
export function fastNode(fields: Partial<FastNode>): FastNode {
  return {
    leaf: true,
    inline: false,
    pure: false,
    simple: false,
    closed: false,
    mask: ANY,
    test: undefined,
    ranged: false,
    ...UNBOUNDED,
    listed: false,
    values: NONE,
    units: 1,
    maxDepth: 0,
    names: undefined,
    nodes: NONE,
    required: NONE,
    slots: NONE,
    requiredCount: 0,
    requiredElsewhere: NONE,
    patterns: NONE,
    patternNodes: NONE,
    additional: undefined,
    memberUnitsPerKey: 0,
    index: undefined,
    laidKeys: [],
    laidSlots: [],
    maxKeys: 0,
    items: false,
    prefix: NONE,
    rest: undefined,
    from: 0,
    maxLength: 0,
    contains: undefined,
    minContains: 0,
    maxContains: Infinity,
    inPlace: NONE,
    choices: NONE,
    condition: undefined,
    accounted: undefined,
    ...fields,
  };
}
