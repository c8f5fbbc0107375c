/**
 * `contentEncoding`, `contentMediaType`, `contentSchema` (Validation §8): annotations by default.
 * With content assertion on, a string must decode (base64), parse (application/json) and, when parsed,
 * be valid against `contentSchema`. The instance itself is never decoded in place.
 */

import { checkChild } from "../../engine/descend.js";
import { isObject } from "../../engine/json.js";
import { type CompileContext, type Evaluator, type KeywordDefinition } from "../../engine/keyword.js";
import type { SchemaNode } from "../../engine/node.js";
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

function contentKeyword(keyword: "contentEncoding" | "contentMediaType" | "contentSchema"): KeywordDefinition {
  return {
    keyword,
    compile(value, ctx) {
      if (!ctx.contentAssertion) {
        if (keyword === "contentSchema" && !ctx.active("contentMediaType")) return undefined;
        return stringAnnotation(keyword, value);
      }
      return asserting(keyword, value, ctx);
    },
  };
}

/** Content keywords annotate string instances only (Validation §8.3–8.5). */
function stringAnnotation(keyword: string, value: unknown): Evaluator {
  return {
    keyword,
    passive: true,
    check(instance, _run, _marks, out) {
      if (out !== null && typeof instance === "string") {
        out.hasAnnotation = true;
        out.annotation = value;
      }
      return true;
    },
  };
}

function asserting(keyword: string, value: unknown, ctx: CompileContext): Evaluator | undefined {
  const encoding = ctx.active("contentEncoding") ? ctx.schema["contentEncoding"] : undefined;
  const mediaType = ctx.active("contentMediaType") ? ctx.schema["contentMediaType"] : undefined;
  const schema: SchemaNode | undefined =
    keyword === "contentSchema" && (isObject(value) || typeof value === "boolean")
      ? ctx.subschema("contentSchema")
      : undefined;
  if (keyword === "contentSchema" && mediaType === undefined) return undefined;
  const decides =
    keyword === "contentSchema" ||
    (keyword === "contentEncoding" ? encoding === "base64" : mediaType === "application/json");
  return {
    keyword,
    check(instance, run, _marks, out) {
      if (typeof instance !== "string") return true;
      if (!decides) {
        if (out !== null) {
          out.hasAnnotation = true;
          out.annotation = value;
        }
        return true;
      }
      const decoded = decode(instance, encoding, keyword === "contentEncoding" ? undefined : mediaType);
      if (!decoded.ok) {
        if (keyword === "contentSchema") return true;
        if (out !== null) {
          out.params = { [keyword]: value };
          out.error = decoded.reason;
        }
        return false;
      }
      if (schema !== undefined && decoded.value !== undefined && !checkChild(schema, decoded.value, "", run, null)) {
        if (out !== null) {
          out.params = { contentSchema: true };
          out.error = "decoded content must be valid against contentSchema";
        }
        return false;
      }
      if (out !== null) {
        out.hasAnnotation = true;
        out.annotation = value;
      }
      return true;
    },
  };
}

export const contentEncoding = contentKeyword("contentEncoding");
export const contentMediaType = contentKeyword("contentMediaType");
export const contentSchema = contentKeyword("contentSchema");
