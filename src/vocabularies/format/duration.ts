/**
 * RFC 3339 Appendix A duration (ISO 8601): "P" then dur-date, dur-time or dur-week; ABNF literals are case-insensitive.
 */

/** The unit sequences the ABNF allows: dur-day / dur-month [dur-day] / dur-year [dur-month [dur-day]]. */
const DATE_UNITS = new Set(["", "D", "M", "MD", "Y", "YM", "YMD"]);
/** dur-hour [dur-minute [dur-second]] / dur-minute [dur-second] / dur-second. */
const TIME_UNITS = new Set(["H", "HM", "HMS", "M", "MS", "S"]);

/** Reads `1*DIGIT unit` pairs from `i` to a "T" or the end; returns the units, or undefined. */
function readUnits(s: string, i: number, end: number): string | undefined {
  let units = "";
  while (i < end) {
    const digitsStart = i;
    while (i < end && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    if (i === digitsStart || i === end) return undefined;
    units += s[i]!.toUpperCase();
    if (units.length > 3) return undefined;
    i++;
  }
  return units;
}

export function duration(value: string): boolean {
  if (value.length < 3 || (value[0] !== "P" && value[0] !== "p")) return false;
  let t = value.indexOf("T");
  if (t < 0) t = value.indexOf("t");
  const dateEnd = t < 0 ? value.length : t;
  const dateUnits = readUnits(value, 1, dateEnd);
  if (dateUnits === undefined) return false;
  if (dateUnits === "W") return t < 0;
  if (!DATE_UNITS.has(dateUnits)) return false;
  if (t < 0) return dateUnits !== "";
  const timeUnits = readUnits(value, t + 1, value.length);
  return timeUnits !== undefined && TIME_UNITS.has(timeUnits);
}
