/**
 * The engine (docs/guide/engine.md): a schema that refers to another document of a registry, format assertion with
 * a host format beside the built-in ones, the boolean path and the output formats, messages rendered as text, and the
 * errors a schema gets when it cannot be used.
 */

import { compile, errorsText, SchemaError } from "backplane-agent-runtime";

// A registry holds the documents references may reach; nothing is ever fetched.
const schemaRegistry = {
  "https://example.test/address": {
    type: "object",
    properties: { city: { type: "string", minLength: 1 }, postcode: { format: "postcode" } },
    required: ["city"],
  },
};
const order = compile(
  {
    $id: "https://example.test/order",
    type: "object",
    properties: {
      email: { type: "string", format: "email" },
      quantity: { type: "integer", minimum: 1, maximum: 99 },
      shipTo: { $ref: "address" }, // resolved against $id, at compile time
    },
    required: ["email", "quantity", "shipTo"],
    additionalProperties: false,
  },
  {
    schemaRegistry,
    formatAssertion: true,
    formats: { postcode: (s: string) => /^[0-9]{4,5}$/.test(s) }, // a host format, checked like the built-in ones
  },
);

const good = { email: "ada@example.test", quantity: 2, shipTo: { city: "Oslo", postcode: "0150" } };
const bad = { email: "ada@", quantity: 0, shipTo: { city: "", postcode: "N1" }, note: "leave at door" };
console.log(order.isValid(good), order.isValid(bad)); // the boolean path builds no errors
console.log(errorsText(order.validate(bad))); // basic output, one line per failing keyword
const flag = order.validate(bad, { output: "flag" });
const detailed = order.validate(bad, { output: "detailed" });
console.log(flag, detailed.valid ? 0 : detailed.errors?.length); // the verdict alone, and the pruned tree

// A schema that cannot be used is a SchemaError, thrown by compile, with its class, code and pointer.
for (const schema of [{ type: "strin" }, { $ref: "https://example.test/missing" }, { maximum: 3, maxmum: 4 }]) {
  try {
    compile(schema, { strictSchema: true });
  } catch (e) {
    if (e instanceof SchemaError) console.log(`${e.class}/${e.code} at "${e.schemaPointer}"`);
  }
}

// Output:
// true false
// (root): property "note" is not allowed (additionalProperties is false)
// /email: must be a valid email, got "ada@"
// /quantity: must be at least 1, got 0
// /shipTo/city: must be at least 1 character long, got 0
// /shipTo/postcode: must be a valid postcode, got "N1"
// { valid: false } 2
// validation/schema_invalid at "/type"
// validation/ref_unresolved at "/$ref"
// validation/keyword_unknown at "/maxmum"
