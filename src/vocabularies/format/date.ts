/** RFC 3339 §5.6 full-date, with the month lengths and leap years of §5.7 and Appendix C. */

import { isFullDateAt } from "./rfc3339.js";

export function date(value: string): boolean {
  return value.length === 10 && isFullDateAt(value, 0);
}
