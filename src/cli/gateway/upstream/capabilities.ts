/**
 * The client capabilities a server is offered (MCP 2025-11-25 `basic/lifecycle.mdx` §Capability Negotiation): by
 * default every one the gateway can carry to its client; in front of one stdio client, only those that client declared.
 */

import { isObject } from "../../../engine/json/json.js";

/** The client capabilities an upstream is offered by default; the gateway carries each to its client, or refuses it. */
export const CAPABILITIES = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } };

/**
 * What the gateway can carry for a client that declared `client`: only the capabilities it has, so a server does not
 * offer tools that need sampling, roots or elicitation to a client that cannot answer them.
 */
export function carriedCapabilities(client: Record<string, unknown>): Record<string, unknown> {
  const offered: Record<string, unknown> = {};
  if (client["sampling"] !== undefined) offered["sampling"] = {};
  if (client["roots"] !== undefined) offered["roots"] = { listChanged: true };
  const elicitation = client["elicitation"];
  if (isObject(elicitation)) {
    // An empty elicitation capability means form mode (MCP 2025-11-25 client/elicitation.mdx §Capabilities).
    const form = elicitation["form"] !== undefined || Object.keys(elicitation).length === 0;
    offered["elicitation"] = {
      ...(form ? { form: {} } : {}),
      ...(elicitation["url"] !== undefined ? { url: {} } : {}),
    };
  }
  return offered;
}
