/**
 * A count of the values the walks that check a value as JSON data visit (`checkJson`; `shallowCount`, which
 * `isJsonData` and the verdict fast path's JSON data check call; `findNotJson`), for the test that a boundary pass
 * walks a value once (test/runtime/boundary/one-walk.test.ts). Nothing counts until a test hands a counter over;
 * until then each walk pays one read of `counter`, and a walk adds what it visited once, when it ends.
 */

/** Where the walks add the values they visit, while a test counts. */
export interface WalkCounter {
  values: number;
}

let counter: WalkCounter | undefined;

/** Makes the walks add to `into` from now on; `undefined` stops counting. Test-only. */
export function countJsonWalks(into: WalkCounter | undefined): void {
  counter = into;
}

/** Adds `values` visited by one walk, when a test counts. */
export function walked(values: number): void {
  if (counter !== undefined) counter.values += values;
}
