/** RFC 3339 §5.6 full-date and full-time, with the calendar rules of §5.7 and Appendix C. */

/** The value of `count` ASCII digits at `start`, or -1 if any of them is not an ASCII digit. */
function digitsAt(s: string, start: number, count: number): number {
  let n = 0;
  for (let i = start; i < start + count; i++) {
    const c = s.charCodeAt(i);
    if (!(c >= 0x30 && c <= 0x39)) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** full-date = date-fullyear "-" date-month "-" date-mday, occupying s[start, start + 10). */
export function isFullDateAt(s: string, start: number): boolean {
  if (s.charCodeAt(start + 4) !== 0x2d || s.charCodeAt(start + 7) !== 0x2d) return false;
  const year = digitsAt(s, start, 4);
  const month = digitsAt(s, start + 5, 2);
  const day = digitsAt(s, start + 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const max = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= max;
}

/**
 * full-time = partial-time time-offset, from `start` to the end of `s`. A leap second (:60) is
 * valid only where the time, converted to UTC by its offset, is 23:59:60.
 */
export function isFullTimeFrom(s: string, start: number): boolean {
  if (s.charCodeAt(start + 2) !== 0x3a || s.charCodeAt(start + 5) !== 0x3a) return false;
  const hour = digitsAt(s, start, 2);
  const minute = digitsAt(s, start + 3, 2);
  const second = digitsAt(s, start + 6, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return false;
  let i = start + 8;
  if (s.charCodeAt(i) === 0x2e) {
    const fractionStart = ++i;
    while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    if (i === fractionStart) return false;
  }
  const sign = s.charCodeAt(i);
  let offsetMinutes = 0;
  if (sign === 0x5a || sign === 0x7a) {
    if (i + 1 !== s.length) return false;
  } else if (sign === 0x2b || sign === 0x2d) {
    if (i + 6 !== s.length || s.charCodeAt(i + 3) !== 0x3a) return false;
    const offsetHour = digitsAt(s, i + 1, 2);
    const offsetMinute = digitsAt(s, i + 4, 2);
    if (offsetHour < 0 || offsetHour > 23 || offsetMinute < 0 || offsetMinute > 59) return false;
    offsetMinutes = (sign === 0x2b ? 1 : -1) * (offsetHour * 60 + offsetMinute);
  } else {
    return false;
  }
  if (second < 60) return true;
  const utcMinutes = (((hour * 60 + minute - offsetMinutes) % 1440) + 1440) % 1440;
  return utcMinutes === 23 * 60 + 59;
}
