/**
 * A part of the gateway put between a transport and the SDK protocol (client or server) already connected over it:
 * a message the part takes never reaches the protocol, and the part hears of the connection closing first.
 */

import type { JSONRPCMessage, Transport } from "../sdk.js";

type OnMessage = NonNullable<Transport["onmessage"]>;

/** `take` sees each message first (true: it is the part's); `closed` runs before the protocol's own close. */
export function interpose(transport: Transport, take: (message: JSONRPCMessage) => boolean, closed: () => void) {
  const protocolMessage = transport.onmessage;
  const protocolClose = transport.onclose;
  const onmessage: OnMessage = (message, extra) => {
    if (!take(message)) protocolMessage?.(message, extra);
  };
  transport.onmessage = onmessage;
  transport.onclose = () => {
    closed();
    protocolClose?.();
  };
}
