/**
 * A strict TypeScript consumer of the installed package's extension points (docs/guide/engine.md "Custom formats",
 * docs/guide/engine.md "Strict schemas", docs/guide/engine.md "Custom keywords and vocabularies", docs/guide/engine.md
 * "Typed results", docs/guide/engine.md "Messages in any language"), and the lines it must print. Its
 * `@ts-expect-error` lines prove the types narrow (an unused one fails the compile), and the narrowed reads
 * (`input.a.length`, `out.errors.map`, `checked.value.a.length`) compile only where they do.
 */

export const FEATURE_CONSUMER = `import {
  assertion,
  compile,
  errorsText,
  InputSchema,
  SchemaError,
  type FormatDefinition,
  type KeywordDefinition,
  type MessageInput,
  type OutputUnit,
  type VocabularyDefinition,
} from "backplane-agent-runtime";

declare const console: { log(line: string): void };
const print = (...values: unknown[]): void =>
  console.log(values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(" "));
const refusal = (build: () => unknown): string => {
  try {
    build();
    return "compiled";
  } catch (e) {
    if (!(e instanceof SchemaError)) throw e;
    const at = e.schemaPointer === undefined ? "-" : JSON.stringify(e.schemaPointer);
    return [e.class, e.code, at, e.message].join(" ");
  }
};

// Custom formats: a string checker; { check, types } for integers; { check, override } replacing a built-in.
const even: FormatDefinition = { check: (n) => typeof n === "number" && n % 2 === 0, types: ["integer"] };
const formats = {
  sku: (value: string) => /^[A-Z]{3}-[0-9]{4}$/.test(value),
  even,
  email: { check: (value: unknown) => String(value).endsWith("@example.test"), override: true },
};
const orderSchema = {
  type: "object",
  properties: { sku: { format: "sku" }, quantity: { format: "even" }, contact: { format: "email" } },
};
const order = compile(orderSchema, { formats, formatAssertion: true });
const orders = [
  { sku: "ABC-1234", quantity: 2, contact: "me@example.test" },
  { sku: "abc" },
  { quantity: 3 },
  { contact: "me@example.com" },
  { quantity: "3" },
];
print("formats", ...orders.map((o) => order.isValid(o)));
print("formats annotate", compile(orderSchema, { formats }).isValid({ sku: "abc" }));
print(errorsText(order.validate({ sku: "abc", quantity: 3 })));
print("formats", refusal(() => compile({ format: "email" }, { formats: { email: () => true } })));

// A custom vocabulary: a keyword built with assertion(), active where a meta-schema lists its vocabulary.
const divisibleBy: KeywordDefinition = {
  keyword: "divisibleBy",
  compile(value, ctx) {
    if (!Number.isInteger(value) || (value as number) < 1) ctx.fail("divisibleBy", "must be a positive integer");
    const divisor = value as number;
    return assertion(
      "divisibleBy",
      (instance) => typeof instance !== "number" || instance % divisor === 0,
      (instance) => ({
        message: "must be divisible by " + divisor + ", got " + String(instance),
        params: { limit: divisor },
      }),
    );
  },
};
const VOCAB = "https://json-schema.org/draft/2020-12/vocab/";
const SHOP = "https://example.test/vocab/shop";
const META = "https://example.test/meta/shop";
const metaSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: META,
  $dynamicAnchor: "meta",
  $vocabulary: { [VOCAB + "core"]: true, [VOCAB + "applicator"]: true, [VOCAB + "validation"]: true, [SHOP]: true },
  allOf: [{ $ref: "https://json-schema.org/draft/2020-12/schema" }],
};
const shop: VocabularyDefinition = { uri: SHOP, keywords: [divisibleBy] };
const shopOptions = { schemaRegistry: { [META]: metaSchema }, vocabularies: [shop] };
const packs = compile({ $schema: META, type: "integer", divisibleBy: 6 }, shopOptions);
print("vocabulary", packs.isValid(12), packs.isValid(8), packs.isValid("8"));
const packed = packs.validate(8);
if (!packed.valid) for (const e of packed.errors) print("vocabulary", e.keyword, e.error ?? "", e.params ?? {});
print("vocabulary inactive", compile({ type: "integer", divisibleBy: 6 }, { vocabularies: [shop] }).isValid(8));
print("vocabulary", refusal(() => compile({ $schema: META, divisibleBy: 0 }, shopOptions)));
print("vocabulary", refusal(() => compile({ $schema: META }, { schemaRegistry: { [META]: metaSchema } })));

// strictSchema: a keyword the specification would ignore is refused, naming the keyword meant.
const misspelt = { type: "object", properties: { a: { maxLenght: 3 } } };
print("strict off", compile(misspelt).isValid({ a: "toolong" }));
print("strict", refusal(() => compile(misspelt, { strictSchema: true })));

// Typed results: isValid narrows, validate narrows on valid, InputSchema.validate narrows on ok.
interface Named {
  a: string;
}
const namedSchema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
const named = compile<Named>(namedSchema);
const input: unknown = JSON.parse('{ "a": "four" }');
// @ts-expect-error: unknown until isValid narrows it
print("typed unknown", typeof input.a);
if (named.isValid(input)) print("typed isValid", input.a.length);
const out = named.validate({ a: 4 });
// @ts-expect-error: a valid output has no errors, so before narrowing they may be undefined
const unnarrowed: OutputUnit[] = out.errors;
void unnarrowed;
if (out.valid) print("typed validate", "valid");
else print("typed validate", out.errors.length, out.errors.map((e) => e.instanceLocation + " " + e.keyword));
const checked = InputSchema.validate<Named>(namedSchema, { a: "abc" });
// @ts-expect-error: a Result has a value only once narrowed on ok
void checked.value;
if (checked.ok) print("typed ok", checked.value.a.length);
else print("typed ok", checked.error.code);
const refused = InputSchema.validate<Named>(namedSchema, { a: 4 });
if (refused.ok) print("typed refused", refused.value.a.length);
else print("typed refused", refused.error.class, refused.error.code, refused.error.message);

// Messages: a renderer applied where output is built (undefined keeps the engine's), and errorsText.
const french = (f: MessageInput): string | undefined => {
  if (f.keyword === "required") return "propriété manquante : " + (f.params.missing ?? []).join(", ");
  if (f.keyword === "maxLength") return "au plus " + f.params.limit + " caractères";
  return undefined;
};
const list = compile(
  { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string", maxLength: 4 } } } },
  { messages: french },
);
const listed = list.validate([{ id: "a" }, { id: "toolong" }, {}, ...Array(8).fill({ id: "b" }), { id: 7 }, {}]);
print(errorsText(listed));
print(errorsText(listed, { separator: " | ", root: "(the list)" }));
print(errorsText(list.validate("x"), { root: "(the list)" }));
`;

/** What FEATURE_CONSUMER prints, line by line. */
export const FEATURE_LINES = [
  "formats true false false false true",
  "formats annotate true",
  "/quantity: must be a valid even, got 3",
  '/sku: must be a valid sku, got "abc"',
  'formats validation options_invalid - compile option "formats" names the built-in format "email"; ' +
    "replacing it needs { check, override: true }",
  "vocabulary true false false",
  'vocabulary divisibleBy must be divisible by 6, got 8 {"limit":6}',
  "vocabulary inactive true",
  'vocabulary validation schema_invalid "/divisibleBy" must be a positive integer',
  'vocabulary unsupported_capability vocabulary_unsupported "" meta-schema "https://example.test/meta/shop" ' +
    'requires the unknown vocabulary "https://example.test/vocab/shop"',
  "strict off true",
  'strict validation keyword_unknown "/properties/a/maxLenght" unknown keyword "maxLenght" ' +
    '(did you mean "maxLength"?); strictSchema refuses keywords that would be ignored',
  "typed unknown string",
  "typed isValid 4",
  'typed validate 1 ["/a type"]',
  "typed ok 3",
  'typed refused validation arguments_invalid arguments do not match the input schema at "/a": ' +
    "must be string, got number",
  "/1/id: au plus 4 caractères",
  "/2: propriété manquante : id",
  "/11/id: must be string, got number",
  "/12: propriété manquante : id",
  "/1/id: au plus 4 caractères | /2: propriété manquante : id | /11/id: must be string, got number | " +
    "/12: propriété manquante : id",
  "(the list): must be array, got string",
];
