/** Sorted code point ranges, stored flat as inclusive [first, last] pairs (regex classes, Unicode tables). */

/** Whether `cp` lies in one of the pairs of `ranges` (binary search). */
export function inRanges(ranges: ArrayLike<number>, cp: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (ranges[2 * mid] as number)) hi = mid - 1;
    else if (cp > (ranges[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}
