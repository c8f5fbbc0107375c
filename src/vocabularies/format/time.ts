/** RFC 3339 §5.6 full-time: partial-time with a required time-offset; leap seconds per §5.7. */

import { isFullTimeFrom } from "./rfc3339.js";

export function time(value: string): boolean {
  return isFullTimeFrom(value, 0);
}
