/** RFC 3987 §2.2 IRI: the RFC 3986 §3 URI grammar widened with ucschar (and iprivate in the query). */

import { isUriReference } from "./rfc3986.js";

export function iri(value: string): boolean {
  return isUriReference(value, true, true);
}
