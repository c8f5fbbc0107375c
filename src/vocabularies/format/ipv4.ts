/** RFC 2673 §3.2 dotted-quad (the RFC 3986 §3.2.2 IPv4address): four dec-octets 0–255, no leading zeros. */

/** Whether s[start, end) is a dec-octet: "0" to "255" without a leading zero. */
function isDecOctet(s: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 1 || length > 3) return false;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
    n = n * 10 + (c - 0x30);
  }
  return n <= 255 && !(length > 1 && s.charCodeAt(start) === 0x30);
}

/** Whether s[start, end) is an IPv4address. */
export function isIpv4At(s: string, start: number, end: number): boolean {
  if (end - start > 15) return false;
  let octets = 0;
  let octetStart = start;
  for (let i = start; i <= end; i++) {
    if (i < end && s.charCodeAt(i) !== 0x2e) continue;
    if (!isDecOctet(s, octetStart, i)) return false;
    octets++;
    octetStart = i + 1;
  }
  return octets === 4;
}

export function ipv4(value: string): boolean {
  return isIpv4At(value, 0, value.length);
}
