/**
 * The `requestState` the gateway mints when it turns a server's request into an MCP 2026-07-28 `input_required`
 * answer (MCP 2026-07-28 `basic/patterns/mrtr.mdx` §Security: a state that affects what happens next is
 * integrity-protected, bound to the principal, short-lived, bound to the method and params, and single use). The
 * state is `<claims>.<mac>`, both base64url: the claims in JSON, the mac an HMAC-SHA256 over them with a key every
 * replica shares (`--request-state-key`) or, by default, one drawn at start for this process alone. Single use is the
 * parked call's own: each state names the round it answers, and a round is answered once.
 */

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isObject } from "../../../engine/json/json.js";

/** What a state binds. */
export interface StateClaims {
  /** The parked call. */
  readonly park: string;
  /** The gateway process holding it. */
  readonly replica: string;
  /** Who may answer it (a digest of the caller's credentials). */
  readonly principal: string;
  readonly method: string;
  /** A digest of the request's params (without `_meta`, `inputResponses` and `requestState`). */
  readonly digest: string;
  /** The round this state answers. */
  readonly round: number;
  /** Expiry, in ms since the epoch. */
  readonly exp: number;
}

/** The least key length (bytes) an HMAC-SHA256 key is given. */
export const MIN_KEY_BYTES = 32;

export class RequestStateCodec {
  constructor(
    private readonly key: Uint8Array = new Uint8Array(randomBytes(MIN_KEY_BYTES)),
    readonly replica: string = randomBytes(6).toString("hex"),
  ) {
    if (key.length < MIN_KEY_BYTES) throw new RangeError(`a requestState key needs at least ${MIN_KEY_BYTES} bytes`);
  }

  private mac(text: string): Buffer {
    return createHmac("sha256", this.key).update(text).digest();
  }

  mint(claims: Omit<StateClaims, "replica">): string {
    const text = Buffer.from(JSON.stringify({ ...claims, replica: this.replica })).toString("base64url");
    return `${text}.${this.mac(text).toString("base64url")}`;
  }

  /** The claims of an unexpired state this gateway (or a replica sharing its key) minted; else why not. */
  open(state: string, now = Date.now()): StateClaims | string {
    const [text, mac, extra] = state.split(".");
    if (text === undefined || mac === undefined || extra !== undefined) return "it is not a state the gateway minted";
    const given = new Uint8Array(Buffer.from(mac, "base64url"));
    const expected = new Uint8Array(this.mac(text));
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return "it is not a state the gateway minted (its signature does not match)";
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    } catch {
      return "it is not a state the gateway minted";
    }
    if (!isClaims(claims)) return "it is not a state the gateway minted";
    if (claims.exp <= now) return "it has expired";
    return claims;
  }
}

function isClaims(value: unknown): value is StateClaims {
  if (!isObject(value)) return false;
  const strings = ["park", "replica", "principal", "method", "digest"].every((k) => typeof value[k] === "string");
  return strings && typeof value["round"] === "number" && typeof value["exp"] === "number";
}

/**
 * A digest of a request's params as the client must send them again on a retry: without `_meta`, `inputResponses`
 * and `requestState`, object members in name order. Undefined when the params cannot be written (nested deeper than
 * the serialiser survives).
 */
export function paramsDigest(params: Record<string, unknown>): string | undefined {
  const { _meta: _m, inputResponses: _i, requestState: _s, ...rest } = params;
  const sorted = (_key: string, value: unknown) =>
    isObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, value[k]]),
        )
      : value;
  try {
    return createHash("sha256").update(JSON.stringify(rest, sorted)).digest("base64url");
  } catch {
    return undefined;
  }
}
