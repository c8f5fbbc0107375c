// MCP tool input schemas: the real corpus with generated calls, and the project's hand-written catalogs with theirs.
// Draft-07 schemas go through the library's own upgradeDraft07 first; every library is given the same upgraded schema.
import { checkedValidators, ownCopy } from "../prepare.mjs";
import { FAIL, generate, invalidVariants } from "./generate.mjs";

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020_12 = /^https:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** The schema every library gets for a tool: 2020-12 as published, draft-07 upgraded; else { dropped: reason }. */
function toolSchema(schema, upgradeDraft07) {
  if (schema === null || typeof schema !== "object") return { dropped: "inputSchema is not an object" };
  const dialect = schema.$schema;
  if (dialect === undefined || DRAFT_2020_12.test(dialect)) return { schema };
  if (typeof dialect !== "string" || !DRAFT_07.test(dialect)) return { dropped: `$schema ${dialect}` };
  const upgraded = upgradeDraft07(schema);
  return upgraded.ok ? { schema: upgraded.value.schema, upgraded: true } : { dropped: "upgradeDraft07 refuses it" };
}

const distinct = (values) => [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];

/** Valid calls (required properties only; with up to three optional ones) and invalid variants, as ajv answers them. */
function generatedCalls(schema, check) {
  const valid = distinct([0, 3].map((extra) => generate(schema, schema, 0, extra))).filter(
    (v) => v !== FAIL && check(v) === true,
  );
  if (!valid.length) return [];
  const invalid = distinct(invalidVariants(schema, valid[valid.length - 1]))
    .filter((v) => check(v) === false)
    .slice(0, 2);
  return [...valid.map((data) => ({ data, valid: true })), ...invalid.map((data) => ({ data, valid: false }))];
}

const tally = (map, key, id) => map.set(key, [...(map.get(key) ?? []), id]);
const listed = (map) =>
  [...map].map(([why, ids]) => `${ids.length} ${why} (${ids.slice(0, 2).join(", ")}${ids.length > 2 ? ", …" : ""})`);

/**
 * The corpus as cases every library takes: each tool's schema (upgraded when draft-07) with calls generated against
 * ajv as the oracle; a tool that some library cannot compile or answers differently is dropped for everyone.
 */
export async function corpusCases(tools, peers, upgradeDraft07, log) {
  const ajv = peers.find((p) => p.name === "ajv");
  const dropped = new Map();
  const candidates = [];
  let upgradedCount = 0;
  for (const t of tools) {
    const { schema, upgraded, dropped: why } = toolSchema(t.inputSchema, upgradeDraft07);
    if (why) {
      tally(dropped, why, t.id);
      continue;
    }
    let check;
    try {
      check = await ajv.compile(schema);
    } catch {
      tally(dropped, "ajv cannot compile it", t.id);
      continue;
    }
    const tests = generatedCalls(schema, check);
    if (!tests.length) tally(dropped, "no generated call that ajv accepts", t.id);
    else {
      candidates.push({ id: t.id, schema, tests });
      if (upgraded) upgradedCount++;
    }
  }
  const kept = [];
  for (const c of candidates) {
    const refusing = [];
    for (const p of peers) await checkedValidators(p, ownCopy([c])).catch(() => refusing.push(p.name));
    if (refusing.length) tally(dropped, `compiled or answered differently by ${refusing.join("+")}`, c.id);
    else kept.push(c);
  }
  const calls = kept.flatMap((c) => c.tests);
  const validCalls = calls.filter((t) => t.valid).length;
  log(
    `mcp-corpus: kept ${kept.length} of ${tools.length} tools (${upgradedCount} of them draft-07, upgraded), ` +
      `${calls.length} generated calls (${validCalls} valid, ${calls.length - validCalls} invalid)` +
      (dropped.size ? `; dropped: ${listed(dropped).join("; ")}` : ""),
  );
  return kept;
}

/**
 * The hand-written catalogs: each tool (draft-07 upgraded) with the calls and verdicts its file states. The files state
 * verdicts with `format` an annotation, as the boundary gives them; cfworker asserts `format`, so a call whose verdict
 * depends on whether `format` asserts is left out (and counted), and every library is compared on the same calls.
 */
export function catalogCases(tools, engine, log) {
  const dropped = new Map();
  const kept = [];
  let formatOnly = 0;
  for (const t of tools) {
    const { schema, dropped: why } = toolSchema(t.inputSchema, engine.upgradeDraft07);
    if (why) {
      tally(dropped, why, t.id);
      continue;
    }
    const annotated = engine.compile(schema);
    const asserted = engine.compile(schema, { formatAssertion: true });
    const calls = t.calls.filter((c) => annotated.isValid(c.data) === asserted.isValid(c.data));
    formatOnly += t.calls.length - calls.length;
    if (calls.length) kept.push({ id: t.id, schema, tests: calls });
  }
  const calls = kept.reduce((a, c) => a + c.tests.length, 0);
  log(
    `catalogs: ${kept.length} hand-written tools with ${calls} calls` +
      (formatOnly ? `; ${formatOnly} left out (their verdict depends on whether format asserts)` : "") +
      (dropped.size ? `; dropped: ${listed(dropped).join("; ")}` : ""),
  );
  return kept;
}

/**
 * The corpus cases as the tool-call boundary takes them (`boundary`: `InputSchema.validateSchema`, `format` an
 * annotation as for every library here, then `validate(args).ok`, which checks the arguments as JSON data within the
 * instance limits, validates them, and builds the error of a refusal). A tool whose schema the boundary refuses (a
 * root `type` other than "object") or whose calls it answers otherwise than ajv did is left out, and counted.
 */
export function boundaryCases(corpus, engine, log) {
  const kept = [];
  const dropped = new Map();
  for (const c of corpus) {
    const compiled = engine.InputSchema.validateSchema(c.schema, { formatAssertion: false });
    if (!compiled.ok) tally(dropped, `refused by InputSchema (${compiled.error.code})`, c.id);
    else {
      const differ = c.tests.find((t) => compiled.value.validate(t.data).ok !== t.valid);
      if (differ === undefined) kept.push({ ...c, boundary: true });
      else tally(dropped, `a call answered ${differ.valid ? "invalid" : "valid"}`, c.id);
    }
  }
  const calls = kept.flatMap((c) => c.tests);
  const valid = calls.filter((t) => t.valid).length;
  log(
    `boundary-corpus: ${kept.length} of the ${corpus.length} mcp-corpus tools, ${calls.length} calls (${valid} valid, ` +
      `${calls.length - valid} invalid)` +
      (dropped.size ? `; dropped: ${listed(dropped).join("; ")}` : ""),
  );
  return kept;
}
