/** RFC 9562 §4 (RFC 4122 §3) UUID string representation: 8-4-4-4-12 hexadecimal digits, any case, any version. */

const HYPHENS = [8, 13, 18, 23];

export function uuid(value: string): boolean {
  if (value.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = value.charCodeAt(i);
    if (HYPHENS.includes(i)) {
      if (c !== 0x2d) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66))) {
      return false;
    }
  }
  return true;
}
