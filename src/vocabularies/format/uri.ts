/** RFC 3986 §3 URI: a scheme, then hier-part, optional query and fragment; ASCII only. */

import { isUriReference } from "./rfc3986.js";

export function uri(value: string): boolean {
  return isUriReference(value, false, true);
}
