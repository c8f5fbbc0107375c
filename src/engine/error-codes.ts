/**
 * The engine's error codes, each with its class, the step it fails at and when (docs/reference/errors.md "Every code"
 * is generated from these tables and the runtime's, so the reference cannot drift): the closed set a `SchemaError`
 * of the engine carries.
 */

/**
 * The three error classes: `validation` (the schema, the options or the value is wrong), `unsupported_capability`
 * (a dialect or vocabulary this engine does not implement) and `execution_failure` (a limit was hit, or a bug).
 */
export type ErrorClass = "validation" | "unsupported_capability" | "execution_failure";

/** What the reference says of one code: its class (or classes), the step that fails, and when. Markdown. */
interface CodeInfo {
  readonly class: string;
  readonly stage: string;
  readonly when: string;
}

/** A layer's codes. */
export type CodeTable = Readonly<Record<string, CodeInfo>>;

/** Engine: the codes of `SchemaError` (`compile`, `validate`, `annotations`). */
export const ENGINE_CODES = {
  schema_invalid: {
    class: "`validation`",
    stage: "compile",
    when: "the schema does not match its meta-schema (or a keyword value is malformed)",
  },
  schema_not_json: {
    class: "`validation`",
    stage: "compile",
    when:
      "a registry or loaded document is not JSON data: a non-JSON value, an accessor or non-enumerable " +
      "property (pointer given)",
  },
  ref_unresolved: {
    class: "`validation`",
    stage: "compile",
    when: "a `$ref`/`$dynamicRef` target is neither in the document, the registry nor the loader",
  },
  ref_invalid: {
    class: "`validation`",
    stage: "compile",
    when: "a reference with a malformed JSON Pointer or percent-encoding",
  },
  pattern_invalid: {
    class: "`validation`",
    stage: "compile",
    when: "a `pattern`/`patternProperties` that is not an ECMA-262 `u` regular expression",
  },
  loader_failed: {
    class: "`validation`",
    stage: "compile",
    when: "the `schemaLoader` threw",
  },
  options_invalid: {
    class: "`validation`",
    stage: "options",
    when:
      'an unknown option name (with the near miss: `did you mean "formatAssertion"?`), a malformed option ' +
      "value (limit, registry key, loader, `baseUri`, a built-in format replaced without `override: true`, " +
      "…), options that cannot be read, or an unknown output format",
  },
  keyword_unknown: {
    class: "`validation`",
    stage: "compile",
    when: "with `strictSchema`, a keyword no active vocabulary defines (with the near miss)",
  },
  format_unknown: {
    class: "`validation`",
    stage: "compile",
    when: "with `strictSchema` where `format` asserts, an unknown format (with the near miss)",
  },
  vocabulary_conflict: {
    class: "`validation`",
    stage: "compile",
    when: "two active vocabularies define the same keyword",
  },
  dialect_unsupported: {
    class: "`unsupported_capability`",
    stage: "compile",
    when:
      "`$schema` names another draft or an unknown dialect (for an older draft the message names the option " +
      'that translates it: `legacyDialects: "upgrade"`, or `draft07: "upgrade"` for draft-07)',
  },
  vocabulary_unsupported: {
    class: "`unsupported_capability`",
    stage: "compile",
    when: "a custom meta-schema requires an unknown vocabulary",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "compile or evaluate",
    when: "a [limit](limits.md) was hit (which, its value, where)",
  },
  format_failed: {
    class: "`execution_failure`",
    stage: "evaluate",
    when: "a host format checker threw or answered something other than a boolean",
  },
  keyword_failed: {
    class: "`execution_failure`",
    stage: "compile or evaluate",
    when: "a host keyword's `compile` or evaluation threw or answered something other than a boolean",
  },
  messages_failed: {
    class: "`execution_failure`",
    stage: "output",
    when: "the `messages` renderer threw or answered something other than a string",
  },
  validator_failed: {
    class: "`execution_failure`",
    stage: "evaluate",
    when: "the validator itself failed (a bug: please report it)",
  },
} as const satisfies CodeTable;

/** A code the engine's `SchemaError` carries. */
export type EngineCode = keyof typeof ENGINE_CODES;
