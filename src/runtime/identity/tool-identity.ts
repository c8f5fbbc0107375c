/**
 * A tool definition's identity: what a host reviews of a descriptor (its model-facing part and the backend it runs
 * on), its RFC 8785 canonical text, and the SHA-256 digest of that text (`sha256-` and base64url, RFC 4648 §5)
 * through the platform's Web Crypto, or synchronously where admission needs it at once.
 */

import { SchemaError } from "../../engine/errors.js";
import type { ErrorCode } from "../errors/codes.js";
import { defineOwn, isObject } from "../../engine/json/json.js";
import type { Limits } from "../../engine/limits.js";
import { canonicalLimits, canonicalText, dataValue, notPlain } from "./canonical-json.js";
import { child } from "./path.js";
import { sha256 } from "./sha256.js";

/**
 * Fields of a descriptor that a model is not shown. `revision` and `backend` are the runtime's own, not MCP fields.
 * `_meta` is MCP protocol metadata for clients: the library never hands it to a model (provider tools leave it
 * out), and servers put volatile data there (timestamps, request ids, progress tokens), so pinning it would make
 * pins change when nothing the model reads has changed.
 */
const NOT_MODEL_FACING: ReadonlySet<string> = new Set(["_meta", "revision", "backend"]);

/**
 * The model-facing part of a tool descriptor: a new plain object with every own enumerable field of `tool` except
 * `_meta`, `revision`, `backend` and those set to `undefined` (absent, as admission and `JSON.stringify` treat
 * them), each holding the very same value. Throws `tool_invalid` for a descriptor that is not an object, and
 * `not_json` for a class instance or an accessor field.
 */
export function modelFacing(tool: unknown): Record<string, unknown> {
  if (!isObject(tool)) {
    throw new SchemaError<ErrorCode<"identity">>({
      class: "validation",
      code: "tool_invalid",
      message: "a tool descriptor must be an object",
    });
  }
  const instance = notPlain(tool, undefined);
  if (instance !== undefined) throw instance;
  const out: Record<string, unknown> = {};
  for (const field of Object.keys(tool)) {
    if (NOT_MODEL_FACING.has(field)) continue;
    const value = dataValue(Object.getOwnPropertyDescriptor(tool, field), child(undefined, field));
    // An optional MCP field set to undefined is absent, as admission treats it and as JSON.stringify writes it.
    if (value !== undefined) defineOwn(out, field, value);
  }
  return out;
}

/**
 * What a host reviews of a tool descriptor: its model-facing part and, when it has one, the `backend` it runs on
 * (a tool moved to another server is a changed tool). Throws as `modelFacing` does.
 */
export function reviewedPart(tool: unknown): Record<string, unknown> {
  const out = modelFacing(tool);
  const backend = (tool as Record<string, unknown>)["backend"];
  if (typeof backend === "string") defineOwn(out, "backend", backend);
  return out;
}

/**
 * The canonical form of a tool definition, what a pin records: the RFC 8785 (JCS) text of what a host reviews of
 * it, which is every MCP field (`name`, `title`, `description`, `icons`, `inputSchema`, `outputSchema`,
 * `annotations`, `execution` and any field a later MCP version adds) but `_meta`, and the runtime's `backend` (not
 * its `revision`). `_meta` is left out because it is protocol metadata for clients that no model is shown, and
 * servers put volatile data there (timestamps), so pins would change when nothing the model reads has; `backend` is
 * in because the server a tool runs on is part of what was reviewed.
 *
 * Two descriptors have the same canonical text exactly when those parts are the same JSON data, whatever the order
 * of their members. Throws as `canonicalize` does (`not_json` with the JSON Pointer into the descriptor, or a
 * `LimitError` of `maxSchemaBytes` / `maxSchemaDepth`), and `tool_invalid` when `tool` is not an object.
 */
export function canonicalTool(tool: unknown, limits?: Partial<Limits>): string {
  return canonicalText(reviewedPart(tool), canonicalLimits(limits));
}

/** The canonical text of a descriptor's model-facing part alone (what the hidden-text scan reads). */
export function canonicalModelFacing(tool: unknown, limits?: Partial<Limits>): string {
  return canonicalText(modelFacing(tool), canonicalLimits(limits));
}

/**
 * The digest of a tool definition: `sha256-` followed by the base64url (RFC 4648 §5, no padding) of the SHA-256 of
 * the UTF-8 bytes of `canonicalTool(tool, limits)`, the form a pin records. Computed with the platform's Web Crypto
 * (`globalThis.crypto.subtle`: Node 20 and later, browsers, workers). Rejects with whatever `canonicalTool` throws.
 */
export async function toolDigest(tool: unknown, limits?: Partial<Limits>): Promise<string> {
  return canonicalDigest(canonicalTool(tool, limits));
}

/** The minimal shape of Web Crypto used here, since the library's TypeScript target declares no DOM. */
interface WebCrypto {
  readonly subtle: { digest(algorithm: "SHA-256", data: Uint8Array): Promise<ArrayBuffer> };
}

/**
 * The digest of a canonical text already computed (what `toolDigest` returns for the tool it came from):
 * `sha256-` and the unpadded base64url of the SHA-256 of its UTF-8 bytes. Rejects with `unsupported_capability` /
 * `web_crypto_unavailable` on a platform without Web Crypto.
 */
export async function canonicalDigest(canonical: string): Promise<string> {
  const crypto = (globalThis as { crypto?: WebCrypto }).crypto;
  if (crypto?.subtle === undefined) {
    const message = "Web Crypto (globalThis.crypto.subtle) is not available on this platform";
    throw new SchemaError<ErrorCode<"identity">>({
      class: "unsupported_capability",
      code: "web_crypto_unavailable",
      message,
    });
  }
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  return "sha256-" + base64url(new Uint8Array(hash));
}

/**
 * What `canonicalDigest` gives for the same text, computed synchronously (FIPS 180-4, our own implementation) so
 * that a synchronous caller such as admission can compare a definition with a pin recorded as a digest. Needs no
 * Web Crypto.
 */
export function canonicalDigestSync(canonical: string): string {
  return "sha256-" + base64url(sha256(new TextEncoder().encode(canonical)));
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Base64url without padding (RFC 4648 §5, §3.2). */
function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += BASE64URL.charAt((n >> (18 - 6 * c)) & 63);
  }
  return out;
}
