/**
 * The identity functions over every tool of the real MCP corpus: canonical text for all, digests that differ
 * exactly where definitions do, stability under reordering, and hidden text counted two independent ways.
 */

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { canonicalize } from "../../../src/runtime/identity/canonical-json.js";
import { changedFields } from "../../../src/runtime/identity/changed-fields.js";
import { hiddenText, mayHideText } from "../../../src/runtime/identity/hidden-text.js";
import { canonicalTool, toolDigest } from "../../../src/runtime/identity/tool-identity.js";
import { descriptorOf, MCP_FIELDS, readCorpus, reordered, type CorpusRecord } from "./helpers.js";

const records = readCorpus();
const tools = records.map(descriptorOf);

/** A record's MCP fields but `_meta`, picked here without the library. */
function mcpPart(record: CorpusRecord): Record<string, unknown> {
  const part: Record<string, unknown> = {};
  for (const field of MCP_FIELDS) if (field !== "_meta" && Object.hasOwn(record, field)) part[field] = record[field];
  return part;
}

/** What a host reviews of a record: its MCP fields but `_meta`, and its server as the backend. */
function reviewed(record: CorpusRecord): Record<string, unknown> {
  return { ...mcpPart(record), backend: record.server };
}

/**
 * Hidden characters found a second way, with regular expressions over the JSON text: every candidate (controls but
 * tab, line feed and carriage return; default-ignorable, bidi and format characters) but those a well-formed emoji
 * sequence or joining script explains, each pattern matched on the original text at once.
 */
const JOINING = "(?:\\p{scx=Arab}|\\p{scx=Deva}|\\p{scx=Beng}|\\p{scx=Taml}|\\p{scx=Mlym}|\\p{scx=Sinh})";
const EXPLAINED = new RegExp(
  [
    "(?<=\\u{1F3F4}[\\u{E0020}-\\u{E007E}]*)[\\u{E0020}-\\u{E007F}](?=[\\u{E0020}-\\u{E007E}]*\\u{E007F})",
    "(?<=\\p{Extended_Pictographic}\\uFE0F?\\p{Emoji_Modifier}?)\\u200D(?=\\p{Extended_Pictographic})",
    `(?<=${JOINING})[\\u200C\\u200D](?=${JOINING})`,
    `(?<=(?=\\p{M})${JOINING})[\\u200C\\u200D]`,
    "(?<=\\p{L})\\u00AD(?=\\p{L})",
    "(?<=\\p{Ideographic})[\\u{E0100}-\\u{E01EF}]",
    "(?<=\\p{Emoji})[\\uFE0E\\uFE0F]",
  ].join("|"),
  "gu",
);
// eslint-disable-next-line no-control-regex -- controls are what it looks for
const CANDIDATES = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cf}]/gu;

describe("the real MCP corpus", () => {
  test("a canonical text for every tool, the JCS text of its MCP fields but _meta and its backend, stable", () => {
    assert.ok(tools.length > 0);
    records.forEach((record, i) => {
      const text = canonicalTool(tools[i]);
      assert.equal(text, canonicalize(reviewed(record)), record.id);
      assert.equal(canonicalize(JSON.parse(text)), text, record.id);
    });
  });

  test("digests are node:crypto's SHA-256 of the text, and differ exactly where the definitions differ", async () => {
    const byText = new Map<string, string>();
    const digests = new Set<string>();
    for (const t of tools) {
      const text = canonicalTool(t);
      const digest = await toolDigest(t);
      assert.equal(digest, "sha256-" + createHash("sha256").update(text, "utf8").digest("base64url"));
      const seen = byText.get(text);
      if (seen !== undefined) assert.equal(digest, seen);
      byText.set(text, digest);
      digests.add(digest);
    }
    assert.equal(digests.size, byText.size);
    console.log(`${tools.length} tools, ${byText.size} distinct definitions, ${digests.size} distinct digests`);
  });

  test("the canonical text is stable under a shuffled key order, and no field changes", () => {
    tools.forEach((t, i) => {
      const shuffled = reordered(t, i + 1);
      assert.equal(canonicalTool(shuffled), canonicalTool(t), records[i]?.id);
      assert.deepEqual(changedFields(t, shuffled), [], records[i]?.id);
    });
  });

  test("tools of one name across servers: changed fields exactly when the canonical texts differ", () => {
    const byName = new Map<string, number[]>();
    records.forEach((r, i) => byName.set(r.name, [...(byName.get(r.name) ?? []), i]));
    let pairs = 0;
    let differing = 0;
    for (const indices of byName.values()) {
      for (const i of indices) {
        for (const j of indices) {
          if (i >= j) continue;
          pairs++;
          const [a, b] = [tools[i], tools[j]];
          const changed = changedFields(a, b);
          assert.equal(changed.length === 0, canonicalTool(a) === canonicalTool(b), `${records[i]?.id}`);
          assert.deepEqual(changedFields(canonicalTool(a), canonicalTool(b)), changed);
          if (changed.length > 0) differing++;
        }
      }
    }
    assert.ok(differing > 0, "some same-name tools differ");
    console.log(`${pairs} same-name pairs, ${differing} with changed fields`);
  });

  test("tools with hidden text: hiddenText agrees with a regular-expression scan of the text", (t) => {
    let found = 0;
    let scanned = 0;
    records.forEach((record, i) => {
      const reported = hiddenText(tools[i]);
      // Strings and member names, joined by a character that is neither hidden nor part of any sequence.
      const strings: string[] = [];
      JSON.stringify(mcpPart(record), (key, value: unknown) => {
        strings.push(key);
        if (typeof value === "string") strings.push(value);
        return value;
      });
      const unexplained = strings.join("\n").replace(EXPLAINED, "");
      const inText = new Set([...unexplained.matchAll(CANDIDATES)].map(([c]) => c.codePointAt(0)));
      const inReport = new Set(reported.flatMap((h) => h.codePoints.map((p) => Number.parseInt(p.slice(2), 16))));
      assert.deepEqual(inReport, inText, record.id);
      if (reported.length > 0) assert.ok(mayHideText(canonicalTool(tools[i])), record.id);
      if (reported.length > 0) found++;
      if (inText.size > 0) scanned++;
    });
    const line = `${found} of ${records.length} corpus tools have hidden text (the JSON-text scan finds ${scanned})`;
    console.log(line);
    t.diagnostic(line); // npm test's reporter shows diagnostics, not what a test writes to stdout
    assert.equal(found, scanned);
  });
});
