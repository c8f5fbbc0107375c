/** Decoding for the content vocabulary: strict base64 (RFC 4648 §4) and UTF-8 (RFC 3629), without platform APIs. */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUES = new Map<number, number>([...ALPHABET].map((c, i) => [c.charCodeAt(0), i]));

/** Decodes canonical base64 with padding; undefined for any other alphabet, length or padding. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  let padding = 0;
  if (text.endsWith("==")) padding = 2;
  else if (text.endsWith("=")) padding = 1;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < text.length; i += 4) {
    let chunk = 0;
    for (let j = 0; j < 4; j++) {
      const c = text.charCodeAt(i + j);
      const last = i + 4 === text.length;
      if (c === 61 && last && j >= 4 - padding) {
        chunk <<= 6;
        continue;
      }
      const v = VALUES.get(c);
      if (v === undefined) return undefined;
      chunk = (chunk << 6) | v;
    }
    for (let k = 16; k >= 0 && out < bytes.length; k -= 8) bytes[out++] = (chunk >> k) & 0xff;
  }
  return bytes;
}

/** Decodes UTF-8 strictly (no overlongs, no surrogates); undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  let text = "";
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i] as number;
    let cp: number;
    let n: number;
    if (b < 0x80) {
      cp = b;
      n = 0;
    } else if (b >= 0xc2 && b <= 0xdf) {
      cp = b & 0x1f;
      n = 1;
    } else if (b >= 0xe0 && b <= 0xef) {
      cp = b & 0x0f;
      n = 2;
    } else if (b >= 0xf0 && b <= 0xf4) {
      cp = b & 0x07;
      n = 3;
    } else return undefined;
    if (i + n >= bytes.length && n > 0) return undefined;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k] as number;
      if ((c & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((n === 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff)))
      return undefined;
    text += String.fromCodePoint(cp);
    i += n + 1;
  }
  return text;
}
