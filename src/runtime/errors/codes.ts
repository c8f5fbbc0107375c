/**
 * The runtime's error codes by layer, in the order data flows, each with its class, the step it fails at and when:
 * the closed sets the runtime's errors carry (`ErrorCodes`, by layer: `ErrorCode<"catalog">` and the others), and
 * the one source of docs/reference/errors.md "Every code", which `scripts/error-reference.mjs` writes from
 * `ERROR_LAYERS` and a test keeps current, so the reference cannot drift from the codes the library returns.
 */

import { ENGINE_CODES, type CodeTable, type EngineCode } from "../../engine/error-codes.js";

/** Boundary: the codes of `BoundaryError` (`InputSchema`, `OutputSchema`) besides the engine's. */
const BOUNDARY_CODES = {
  schema_not_json: {
    class: "`validation`",
    stage: "schema",
    when:
      "a host schema holds a non-JSON value: a function, `undefined`, `bigint`, `NaN`, a class instance, a " +
      "sparse array, a cycle, an accessor or non-enumerable property (pointer given)",
  },
  root_not_object: {
    class: "`validation`",
    stage: "schema",
    when: 'an input schema\'s root is not an object, or its `type` is not exactly `"object"`/`["object"]`',
  },
  upgrade_blocked: {
    class: "`unsupported_capability`",
    stage: "schema",
    when:
      'with `legacyDialects: "upgrade"` (or `draft07: "upgrade"`), an older schema with no exact 2020-12 ' +
      "translation (the reason and its pointer; `uri#pointer` in a registry document) ([Older " +
      "dialects](../guide/older-dialects.md))",
  },
  arguments_invalid: {
    class: "`validation`",
    stage: "arguments",
    when:
      "the arguments are not an object, not JSON (an accessor property included), or do not satisfy the " + "schema",
  },
  output_invalid: {
    class: "`validation`",
    stage: "result",
    when: "a result is not JSON or does not satisfy the output schema",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "schema, arguments or result",
    when:
      "a limit was hit; the arguments are also checked against the instance limits before the schema sees " + "them",
  },
  validator_failed: {
    class: "`execution_failure`",
    stage: "arguments or result",
    when: "the validator failed, or a host `Proxy` trap threw while the value was read",
  },
} as const satisfies CodeTable;

/** Dialect upgrades: the codes of `UpgradeFailed` (`upgradeLegacySchema`, `upgradeDraft07`, their set forms). */
const UPGRADE_CODES = {
  upgrade_blocked: {
    class: "`unsupported_capability`",
    stage: "translate",
    when:
      "no exact translation: a `$ref` that does not resolve or reads a position draft-07 ignores, an `$id` " +
      "fragment 2020-12 cannot spell, a kept value both drafts reject, another `$schema`",
  },
  schema_not_json: {
    class: "`validation`",
    stage: "read",
    when:
      "the value is not JSON data (a function, a class instance, an accessor property, a cycle, a throwing " +
      "`Proxy`)",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "read",
    when: "beyond `maxSchemaBytes` or `maxSchemaNodes`, found before the translation walks it",
  },
  validator_failed: {
    class: "`execution_failure`",
    stage: "translate",
    when: "the upgrade itself failed (a bug: please report it)",
  },
} as const satisfies CodeTable;

/** Elicitation: the codes of `ElicitationError` (`ElicitationSchema`) besides the boundary's it hands on. */
const ELICITATION_CODES = {
  elicitation_unsupported: {
    class: "`unsupported_capability`",
    stage: "schema",
    when:
      "the requested schema leaves the MCP form-mode subset: not a flat object of primitive properties and the " +
      "enum forms (the first keyword outside it is `schemaPointer`)",
  },
  default_invalid: {
    class: "`validation`",
    stage: "schema",
    when: "a property's `default` does not satisfy the property",
  },
  result_invalid: {
    class: "`validation`",
    stage: "result",
    when:
      "the `ElicitResult` is not a JSON object, its `action` is not `accept`, `decline` or `cancel`, or it " +
      "carries content with another action",
  },
  content_invalid: {
    class: "`validation`",
    stage: "result",
    when:
      "the accepted content has a key the schema does not declare, a value that does not match its property, " +
      "or lacks a required one (`problems` lists them, quoting no value)",
  },
} as const satisfies CodeTable;

/** Identity: the codes of the `SchemaError` that `ToolCatalog.canonical` throws and `digest` rejects with. */
const IDENTITY_CODES = {
  tool_invalid: {
    class: "`validation`",
    stage: "canonical form",
    when: "`ToolCatalog.canonical` or `digest` was given a descriptor that is not an object",
  },
  web_crypto_unavailable: {
    class: "`unsupported_capability`",
    stage: "digest",
    when:
      "`ToolCatalog.digest` on a platform without Web Crypto (`globalThis.crypto.subtle`); admission itself " +
      "never needs it",
  },
  not_json: {
    class: "`validation`",
    stage: "canonical form",
    when:
      "a field the runtime does not interpret is not JSON (the `cause` of `tool_invalid`; thrown by " +
      "`ToolCatalog.canonical`)",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "canonical form",
    when: "the canonical form is over its budget (the `cause` of `tool_invalid`)",
  },
} as const satisfies CodeTable;

/** Admission: the codes of `CatalogError` from `ToolCatalog.admitBatch` (and a conversation's catalogs). */
const CATALOG_CODES = {
  options_invalid: {
    class: "`validation`",
    stage: "options",
    when:
      "an unknown or malformed option of `admitBatch` (or of a `Conversation` method, named as its option), a " +
      "malformed pin, a target that is not one; checked before any tool",
  },
  catalog_invalid: {
    class: "`validation`",
    stage: "batch",
    when: "`tools` is not an array of tool descriptors, or cannot be read",
  },
  tool_invalid: {
    class: "`validation` (or its cause's class)",
    stage: "descriptor or identity",
    when:
      "a descriptor that is not an object or whose fields cannot be read; a `backend` that is not a string; a " +
      "descriptor without a canonical form (with the `not_json` or `limit_exceeded` `cause`), or whose data outside " +
      "its schemas nests past `maxSchemaDepth` or holds more than `maxSchemaNodes` values (`limit_exceeded`)",
  },
  tool_name_invalid: {
    class: "`validation`",
    stage: "descriptor",
    when:
      "a name outside the MCP rules (1–128 of `A–Z a–z 0–9 _ - .`), or a listed (namespaced) name over " +
      '`maxToolNameLength`; in quarantine the tool alone is refused (`status: "refused"`)',
  },
  header_invalid: {
    class: "`validation`",
    stage: "headers",
    when:
      "an `x-mcp-header` breaks the 2026-07-28 rules (`schemaPointer` names it); in quarantine the tool alone " +
      "is refused",
  },
  tool_revision_missing: {
    class: "`validation`",
    stage: "descriptor",
    when: "`revision` is missing or not a non-empty string",
  },
  tool_description_invalid: {
    class: "`validation`",
    stage: "descriptor",
    when: "`description` is present and not a string",
  },
  backend_unknown: {
    class: "`validation`",
    stage: "descriptor",
    when: "with `backends`, a tool's `backend` is not one of them",
  },
  tool_duplicate: {
    class: "`validation`",
    stage: "descriptor",
    when: "two tools with one (listed) name",
  },
  schema_rejected: {
    class: "the schema error's",
    stage: "schemas",
    when:
      "`inputSchema` or `outputSchema` refused by the boundary (`schema` says which, `cause` is the error); " +
      "*omitted* in quarantine when its class is `unsupported_capability`",
  },
  hidden_text: {
    class: "`validation`",
    stage: "identity",
    when:
      'with `hiddenText: "refuse"`, model-facing text holds invisible or reordering characters ' +
      "(`hiddenText` says where); *omitted* in quarantine",
  },
  tool_changed: {
    class: "`validation`",
    stage: "identity",
    when: "the tool differs from its pin (`fields` says where); *omitted* (held) in quarantine",
  },
  tool_unpinned: {
    class: "`validation`",
    stage: "identity",
    when: 'with `unpinned: "hold"`, the tool has no pin; *omitted* (held) in quarantine',
  },
  provider_unsupported: {
    class: "`unsupported_capability`",
    stage: "targets",
    when:
      "a required provider target refuses the tool, two tools collide on one provider name, or a request " +
      "exceeds a budget (`provider` says which rule); *omitted* in quarantine, except a budget",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "targets",
    when: "a provider check hit its walk's limits",
  },
  authority_invalid: {
    class: "`validation`",
    stage: "batch",
    when: "`authority` is not an object, or its `grants` is not an object keyed by tool name",
  },
  grant_unknown_tool: {
    class: "`validation`",
    stage: "batch",
    when: "a grant names a tool that is not in the batch",
  },
} as const satisfies CodeTable;

/** Conversation: the codes of `CatalogError` only a `Conversation` returns. */
const CONVERSATION_CODES = {
  checkpoint_invalid: {
    class: "`validation`",
    stage: "restore",
    when:
      "a checkpoint that cannot be read or is malformed (its `pins` malformed, or leaving an admitted tool " +
      "unpinned)",
  },
  checkpoint_mismatch: {
    class: "`validation`",
    stage: "restore",
    when:
      "the catalog given to `restore` is not the checkpoint's: a tool differs from its pin (`fields`), or the " +
      "admitted and held tools differ",
  },
  tool_not_held: {
    class: "`validation`",
    stage: "approve",
    when: "`approve` names a tool that is not held for review",
  },
} as const satisfies CodeTable;

/** Provider checks: the codes of `ProviderError`. */
const PROVIDER_CODES = {
  provider_unsupported: {
    class: "`unsupported_capability`",
    stage: "check",
    when: "the profile refuses the tool (`rule`, `keyword`, `schemaPointer` say why)",
  },
  options_invalid: {
    class: "`validation`",
    stage: "options",
    when:
      "an unknown profile name, a repeated target, a malformed profile (`defineProfile`), an unknown or " +
      "malformed option",
  },
  tool_invalid: {
    class: "`validation`",
    stage: "check",
    when: "what was checked is not an MCP tool (no name, a schema that is not an object)",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "check",
    when: "the schema is deeper or larger than the walk's `limits`",
  },
} as const satisfies CodeTable;

/** Provider requests: the codes of `CallDecodeError` (`decodeCall`, a model's call back to the tool's). */
const CALL_DECODE_CODES = {
  call_invalid: {
    class: "`validation`",
    stage: "decode",
    when: "not an object with a string `name`, or arguments that cannot be read (a throwing getter, a revoked `Proxy`)",
  },
  tool_unknown: {
    class: "`validation`",
    stage: "decode",
    when: "the model called a name the request does not list",
  },
  limit_exceeded: {
    class: "`execution_failure`",
    stage: "decode",
    when:
      "the arguments are deeper than `maxInstanceDepth` or visit more than `maxInstanceNodes` values (pointer " +
      "given)",
  },
} as const satisfies CodeTable;

/** Gateway: the codes of `ExecutionError` besides the boundary's argument and result codes it hands on. */
const GATEWAY_CODES = {
  bundle_invalid: {
    class: "`validation`",
    stage: "`lookup`",
    when:
      "the bundle is not one `ToolCatalog.admitBatch` returned (missing, a look-alike, one from another copy " +
      "of the library)",
  },
  options_invalid: {
    class: "`validation`",
    stage: "`host`",
    when:
      "the host is not an object, has a field other than the stages and `dispatch`, has no `dispatch`, or a " +
      "stage is not a function",
  },
  call_invalid: {
    class: "`validation`",
    stage: "`lookup`",
    when:
      "the call is not an object, has a field MCP's `CallToolRequest` params do not have, a `name` that is " +
      "not a string, or fields that cannot be read",
  },
  tool_unknown: {
    class: "`validation`",
    stage: "`lookup`",
    when: "no admitted tool has that name",
  },
  tool_quarantined: {
    class: "`unsupported_capability` (`validation` for hidden text)",
    stage: "`lookup`",
    when: "the tool was omitted by quarantine (an unsupported schema, a provider target, or refused hidden text)",
  },
  tool_held: {
    class: "`validation`",
    stage: "`lookup`",
    when: 'the tool is held for review (changed since its pin, or new under `unpinned: "hold"`)',
  },
  arguments_invalid: {
    class: "`validation`",
    stage: "`arguments`",
    when:
      "the arguments do not satisfy the input schema (or another of the boundary's argument codes, such as " +
      "`limit_exceeded`)",
  },
  arguments_undeclared: {
    class: "`validation`",
    stage: "`arguments`",
    when:
      "with `closedArguments: true`, the arguments carry a property the input schema does not declare (the " +
      "input schema accepts them; the closed one does not), named in `modelText`",
  },
  grant_missing: {
    class: "`validation`",
    stage: "`authorize`",
    when: "the authority has `grants` and none of its own for this tool",
  },
  stage_refused: {
    class: "`validation`",
    stage: "the stage",
    when: "a host stage answered `false` or `{ ok: false, error }`",
  },
  stage_failed: {
    class: "`execution_failure`",
    stage: "the stage",
    when: "a host stage threw, or answered a verdict that cannot be read",
  },
  dispatch_failed: {
    class: "`execution_failure`",
    stage: "`dispatch`",
    when: "`dispatch` threw or rejected",
  },
  output_invalid: {
    class: "`validation`",
    stage: "`result`",
    when:
      "a tool with an `outputSchema` returned no object with a valid `structuredContent` (or the boundary's " +
      "`limit_exceeded` on a result)",
  },
  validator_failed: {
    class: "`execution_failure`",
    stage: "`lookup`",
    when: "the gateway itself failed (a bug: please report it)",
  },
} as const satisfies CodeTable;

/**
 * The closed code sets, one per layer, by the layer's name: `ErrorCodes["catalog"]` (or `ErrorCode<"catalog">`) is
 * every code a `CatalogError` can carry (docs/reference/errors.md "Every code").
 */
export interface ErrorCodes {
  /** `SchemaError` from `compile`, `validate`, `annotations` (`EngineCode`). */
  engine: EngineCode;
  /** `BoundaryError` (`InputSchema`, `OutputSchema`): the engine's codes and the boundary's own. */
  boundary: EngineCode | keyof typeof BOUNDARY_CODES;
  /** `UpgradeFailed` and `UpgradeBlocked` (the dialect upgrades). */
  upgrade: keyof typeof UPGRADE_CODES;
  /** `ElicitationError` (`ElicitationSchema`): the boundary's codes and its own. */
  elicitation: EngineCode | keyof typeof BOUNDARY_CODES | keyof typeof ELICITATION_CODES;
  /** The `SchemaError` of `ToolCatalog.canonical` and `digest`. */
  identity: keyof typeof IDENTITY_CODES;
  /** `CatalogError` (`ToolCatalog.admitBatch`, `Conversation`) and `CatalogAdmissionError`. */
  catalog: keyof typeof CATALOG_CODES | keyof typeof CONVERSATION_CODES;
  /** `ProviderError` and `ProfileError` (the provider checks, profiles and targets). */
  provider: keyof typeof PROVIDER_CODES;
  /** `CallDecodeError` (a provider request's `decodeCall`). */
  callDecode: keyof typeof CALL_DECODE_CODES;
  /** `ExecutionError` (`Execution.invoke`): the gateway's codes and the boundary's it hands on. */
  execution: keyof typeof GATEWAY_CODES | EngineCode | keyof typeof BOUNDARY_CODES;
}

/**
 * A code the library returns or throws: every one by default, or one layer's closed set (`ErrorCode<"boundary">`,
 * `ErrorCode<"catalog">`, …; the layers are the keys of `ErrorCodes`).
 */
export type ErrorCode<Layer extends keyof ErrorCodes = keyof ErrorCodes> = ErrorCodes[Layer];

/** One layer of the reference: its title, the shapes that carry its codes, a paragraph before its table, its codes. */
interface ErrorLayer {
  readonly title: string;
  /** The error shapes that carry its codes (the first makes most of them). */
  readonly shapes: readonly string[];
  readonly intro: string;
  readonly codes: CodeTable;
}

/**
 * Every layer's codes, in the order data flows (the order of docs/reference/errors.md "Every code").
 * @public read by scripts/error-reference.mjs from dist/, which writes the reference
 */
export const ERROR_LAYERS: readonly ErrorLayer[] = [
  { title: "Engine", shapes: ["SchemaError", "LimitError"], intro: "", codes: ENGINE_CODES },
  {
    title: "Boundary",
    shapes: ["BoundaryError"],
    intro: "The boundary answers every engine code above as an error result (never thrown), plus:",
    codes: BOUNDARY_CODES,
  },
  { title: "Dialect upgrades", shapes: ["UpgradeFailed", "UpgradeBlocked"], intro: "", codes: UPGRADE_CODES },
  {
    title: "Elicitation",
    shapes: ["ElicitationError"],
    intro:
      "`ElicitationSchema` ([Elicitation](../guide/elicitation.md)) answers the boundary's codes for a requested " +
      "schema it compiles (with the boundary's error as `cause`) and for a limit, plus:",
    codes: ELICITATION_CODES,
  },
  { title: "Identity", shapes: ["SchemaError"], intro: "", codes: IDENTITY_CODES },
  {
    title: "Admission",
    shapes: ["CatalogError", "CatalogAdmissionError"],
    intro:
      "Strict admission refuses the batch on the first error. Quarantine omits a tool, listing it on " +
      "`bundle.rejected`, only for the codes marked *omitted*; every other code stays fatal in both modes.",
    codes: CATALOG_CODES,
  },
  {
    title: "Conversation",
    shapes: ["CatalogError", "CatalogAdmissionError"],
    intro: "A conversation returns every admission code above for its catalogs, plus:",
    codes: CONVERSATION_CODES,
  },
  { title: "Provider checks", shapes: ["ProviderError", "ProfileError"], intro: "", codes: PROVIDER_CODES },
  {
    title: "Call decoder",
    shapes: ["CallDecodeError"],
    intro:
      "A provider request's `decodeCall` takes a model's call back to the tool's " +
      "([The call decoder](../guide/providers-openai-strict.md#the-call-decoder)):",
    codes: CALL_DECODE_CODES,
  },
  {
    title: "Gateway",
    shapes: ["ExecutionError"],
    intro:
      "Every gateway error carries `modelText`, written for a model: the boundary's rendering of argument or " +
      "result errors, or a fixed sentence naming the stage " +
      "([What a model is told](../guide/admission.md#what-a-model-is-told)).",
    codes: GATEWAY_CODES,
  },
];
