/** RFC 5321 §4.1.2 Mailbox: a dot-atom or quoted local part, then a host name or an IPv4/IPv6 address literal. */

import { isMailbox } from "./mailbox.js";

export function email(value: string): boolean {
  return isMailbox(value, false);
}
