/** RFC 6531 §3.3 Mailbox: RFC 5321 with UTF-8 in the local part and U-labels (checked after NFC) in the domain. */

import { isMailbox } from "./mailbox.js";

export function idnEmail(value: string): boolean {
  return isMailbox(value, true);
}
