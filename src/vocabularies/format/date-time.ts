/** RFC 3339 §5.6 date-time = full-date "T" full-time ("T" and "Z" in either case, per the §5.6 note). */

import { isFullDateAt, isFullTimeFrom } from "./rfc3339.js";

export function dateTime(value: string): boolean {
  const t = value.charCodeAt(10);
  return (t === 0x54 || t === 0x74) && isFullDateAt(value, 0) && isFullTimeFrom(value, 11);
}
