/** RFC 3987 §2.2 IRI-reference: an IRI or an irelative-ref. */

import { isUriReference } from "./rfc3986.js";

export function iriReference(value: string): boolean {
  return isUriReference(value, true, false);
}
