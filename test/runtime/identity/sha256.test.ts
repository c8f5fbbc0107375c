/** The synchronous SHA-256 behind digest pins: FIPS 180-4's examples, and node:crypto and Web Crypto agreeing. */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { sha256 } from "../../../src/runtime/identity/sha256.js";
import { canonicalDigest, canonicalDigestSync } from "../../../src/runtime/identity/tool-identity.js";

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("sha256", () => {
  test("the FIPS 180-4 examples (one block, two blocks, a million a's) and the empty message", () => {
    assert.equal(hex(sha256(ascii("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert.equal(
      hex(sha256(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    assert.equal(
      hex(sha256(ascii("a".repeat(1_000_000)))),
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
    assert.equal(hex(sha256(new Uint8Array())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });

  test("every length from 0 to 300 bytes (each padding case, block edges at 55, 56, 64) is node:crypto's", () => {
    for (let length = 0; length <= 300; length++) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      assert.equal(hex(sha256(data)), createHash("sha256").update(data).digest("hex"), `${length} bytes`);
    }
  });

  test("arbitrary bytes: node:crypto's digest", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
        assert.equal(hex(sha256(data)), createHash("sha256").update(data).digest("hex"));
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  test("canonicalDigestSync is what canonicalDigest (Web Crypto) says, for any text", async () => {
    const texts = fc.sample(fc.string({ unit: "grapheme", maxLength: 300 }), { numRuns: 200, seed: 7 });
    texts.push("", "{}", "😀".repeat(40), "\u{E0041}\u200b\u202e");
    for (const text of texts)
      assert.equal(canonicalDigestSync(text), await canonicalDigest(text), JSON.stringify(text));
  });
});
