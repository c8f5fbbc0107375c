/** RFC 1123 §2.1 host names, whose "xn--" labels must be valid IDNA2008 A-labels (RFC 5891 §4.4, §5.4). */

import { isDomainName } from "./domain.js";

export function hostname(value: string): boolean {
  return isDomainName(value, false);
}
