/**
 * `contentEncoding`, `contentMediaType`, `contentSchema` (Validation §8): annotations by default.
 * With content assertion on, a string must decode (base64), parse (application/json) and, when parsed,
 * be valid against `contentSchema`. The instance itself is never decoded in place.
 */

import { isObject } from "../../engine/json/json.js";
import {
  annotation,
  assertion,
  type CompileContext,
  type Evaluator,
  type KeywordDefinition,
} from "../../engine/evaluate/keyword.js";
import type { Subschema } from "../../engine/evaluate/run.js";
import { TYPE_BITS } from "../../engine/json/types.js";
import { decodeBase64, decodeUtf8 } from "./decode.js";

type Decoded = { ok: true; value: unknown } | { ok: false; reason: string };

function decode(text: string, encoding: unknown, mediaType: unknown): Decoded {
  let decoded = text;
  if (encoding === "base64") {
    const bytes = decodeBase64(text);
    const utf8 = bytes === undefined ? undefined : decodeUtf8(bytes);
    if (utf8 === undefined) return { ok: false, reason: "must be valid base64-encoded text (contentEncoding base64)" };
    decoded = utf8;
  }
  if (mediaType !== "application/json") return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(decoded) };
  } catch {
    return { ok: false, reason: "must be valid JSON text (contentMediaType application/json)" };
  }
}

type ContentKeyword = "contentEncoding" | "contentMediaType" | "contentSchema";

function contentKeyword(keyword: ContentKeyword): KeywordDefinition {
  return {
    keyword,
    compile(value, ctx) {
      if (!ctx.contentAssertion) {
        if (keyword === "contentSchema" && !ctx.active("contentMediaType")) return undefined;
        return annotation(keyword, value, STRINGS);
      }
      return asserting(keyword, value, ctx);
    },
  };
}

/** Content keywords annotate string instances only (Validation §8.3–8.5). */
const STRINGS = TYPE_BITS["string"] as number;

function asserting(keyword: ContentKeyword, value: unknown, ctx: CompileContext): Evaluator | undefined {
  const encoding = ctx.active("contentEncoding") ? ctx.schema["contentEncoding"] : undefined;
  const mediaType = ctx.active("contentMediaType") ? ctx.schema["contentMediaType"] : undefined;
  const schema: Subschema | undefined =
    keyword === "contentSchema" && (isObject(value) || typeof value === "boolean")
      ? ctx.subschema("contentSchema")
      : undefined;
  if (keyword === "contentSchema" && mediaType === undefined) return undefined;
  const decides =
    keyword === "contentSchema" ||
    (keyword === "contentEncoding" ? encoding === "base64" : mediaType === "application/json");
  if (!decides) return annotation(keyword, value, STRINGS);
  const decodeAs = (text: string): Decoded =>
    decode(text, encoding, keyword === "contentEncoding" ? undefined : mediaType);
  return assertion(
    keyword,
    (instance, run) => {
      if (typeof instance !== "string") return true;
      // Decoding and parsing read the string once: one step per code unit (docs/reference/limits.md).
      run.spend(1 + instance.length);
      const decoded = decodeAs(instance);
      // An undecodable string fails contentEncoding/contentMediaType; contentSchema then has nothing to apply to.
      if (!decoded.ok) return keyword === "contentSchema";
      return schema === undefined || decoded.value === undefined || run.child(schema, decoded.value);
    },
    (instance) => {
      const decoded = decodeAs(instance as string);
      if (decoded.ok)
        return { message: "decoded content must be valid against contentSchema", params: { contentSchema: true } };
      return {
        message: decoded.reason,
        params: keyword === "contentEncoding" ? { contentEncoding: value } : { contentMediaType: value },
      };
    },
    { annotation: { value, forTypes: STRINGS } },
  );
}

export const contentEncoding = contentKeyword("contentEncoding");
export const contentMediaType = contentKeyword("contentMediaType");
export const contentSchema = contentKeyword("contentSchema");
