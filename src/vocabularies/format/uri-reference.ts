/** RFC 3986 §4.1 URI-reference: a URI or a relative-ref (§4.2); ASCII only. */

import { isUriReference } from "./rfc3986.js";

export function uriReference(value: string): boolean {
  return isUriReference(value, false, false);
}
