/**
 * RFC 5890 §2.3.2.3 internationalized host names: LDH labels, A-labels and U-labels under IDNA2008
 * (RFC 5891–5893).
 */

import { isDomainName } from "./domain.js";

export function idnHostname(value: string): boolean {
  return isDomainName(value, true);
}
