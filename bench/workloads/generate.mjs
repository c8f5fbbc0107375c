// Arguments for a tool's input schema, generated from the schema itself (best effort: the caller keeps only those an
// oracle answers as intended).
const FORMAT_EXAMPLES = {
  "date-time": "2025-01-15T10:30:00Z",
  date: "2025-01-15",
  time: "10:30:00Z",
  duration: "P1D",
  email: "dev@example.com",
  "idn-email": "dev@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/a",
  "uri-reference": "/a/b",
  iri: "https://example.com/a",
  "iri-reference": "/a",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  "json-pointer": "/a/0",
  regex: "^a+$",
  "uri-template": "/a/{id}",
};
const STRING_CANDIDATES = [
  "example",
  "abc",
  "a",
  "A",
  "1",
  "123",
  "x1",
  "main",
  "2025-01-15",
  "owner/repo",
  "https://example.com",
  "example.com",
  "a-b_c.d",
  "ABC123",
  "#fff",
  "00:00",
  "0644",
  "e1",
];

const has = (o, k) => Object.hasOwn(o, k);

function resolveLocal(root, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !has(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

export const FAIL = Symbol("fail");

/** A value meant to satisfy `schema` (best effort: ajv has the last word). */
export function generate(schema, root, depth = 0, extraOptional = 0) {
  if (depth > 12) return FAIL;
  if (schema === true || schema === undefined) return "example";
  if (schema === false || schema === null || typeof schema !== "object") return FAIL;
  if (schema.$ref !== undefined) {
    const target = resolveLocal(root, schema.$ref);
    if (target === undefined) return FAIL;
    const { $ref: _r, ...rest } = schema;
    return generate(Object.keys(rest).length ? { ...target, ...rest } : target, root, depth + 1, extraOptional);
  }
  if (has(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (has(schema, "default") && schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const { allOf, ...rest } = schema;
    let merged = rest;
    for (const s of allOf) {
      const part = s && typeof s === "object" && s.$ref ? (resolveLocal(root, s.$ref) ?? {}) : s;
      if (part && typeof part === "object") {
        merged = {
          ...merged,
          ...part,
          properties: { ...merged.properties, ...part.properties },
          required: [...(merged.required ?? []), ...(part.required ?? [])],
        };
      }
    }
    return generate(merged, root, depth + 1, extraOptional);
  }
  for (const k of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[k]) && schema[k].length) {
      const { [k]: branches, ...rest } = schema;
      for (const b of branches) {
        const branch = b && typeof b === "object" && b.$ref ? resolveLocal(root, b.$ref) : b;
        if (!branch || typeof branch !== "object" || branch.type === "null") continue;
        const v = generate(
          {
            ...rest,
            ...branch,
            properties: { ...rest.properties, ...branch.properties },
            required: [...(rest.required ?? []), ...(branch.required ?? [])],
          },
          root,
          depth + 1,
          extraOptional,
        );
        if (v !== FAIL) return v;
      }
      return generate(rest, root, depth + 1, extraOptional);
    }
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== "null") ?? type[0];
  if (type === undefined) {
    if (schema.properties || schema.required || schema.additionalProperties !== undefined) type = "object";
    else if (schema.items || schema.prefixItems) type = "array";
    else if (schema.minimum !== undefined || schema.maximum !== undefined) type = "number";
    else type = "string";
  }
  switch (type) {
    case "string": {
      if (schema.format && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Infinity;
      const fits = (s) => [...s].length >= min && [...s].length <= max;
      if (schema.pattern) {
        let re;
        try {
          re = new RegExp(schema.pattern, "u");
        } catch {
          return FAIL;
        }
        return STRING_CANDIDATES.find((s) => fits(s) && re.test(s)) ?? FAIL;
      }
      let s = "example";
      if (s.length < min) s = s.padEnd(min, "x");
      if (s.length > max) s = s.slice(0, max);
      return s;
    }
    case "integer":
    case "number": {
      let v = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined) ?? 1;
      if (schema.maximum !== undefined && v > schema.maximum) v = schema.maximum;
      if (schema.exclusiveMaximum !== undefined && v >= schema.exclusiveMaximum) v = schema.exclusiveMaximum - 1;
      if (type === "integer") v = Math.ceil(v);
      if (schema.multipleOf) v = Math.ceil(v / schema.multipleOf) * schema.multipleOf;
      return v;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const out = [];
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const n = Math.max(schema.minItems ?? 0, prefix.length ? prefix.length : 1);
      for (let i = 0; i < n; i++) {
        const v = generate(i < prefix.length ? prefix[i] : schema.items, root, depth + 1);
        if (v === FAIL) return FAIL;
        out.push(schema.uniqueItems && typeof v === "string" && i > 0 ? v + i : v);
      }
      return out;
    }
    case "object": {
      const out = {};
      const props = schema.properties ?? {};
      const names = [...new Set(schema.required ?? [])];
      for (const p of Object.keys(props)) {
        if (extraOptional <= 0) break;
        if (!names.includes(p)) {
          names.push(p);
          extraOptional--;
        }
      }
      for (const p of names) {
        const sub = has(props, p)
          ? props[p]
          : typeof schema.additionalProperties === "object"
            ? schema.additionalProperties
            : true;
        const v = generate(sub, root, depth + 1);
        if (v === FAIL) return FAIL;
        out[p] = v;
      }
      return out;
    }
    default:
      return FAIL;
  }
}

/** Invalid variants of a valid argument object: a required property removed, each property of the wrong type. */
export function invalidVariants(schema, valid) {
  const variants = [];
  if (Array.isArray(schema.required) && schema.required.length && valid && typeof valid === "object") {
    const { [schema.required[0]]: _drop, ...rest } = valid;
    variants.push(rest);
  }
  if (valid && typeof valid === "object" && !Array.isArray(valid)) {
    for (const k of Object.keys(valid))
      variants.push({
        ...valid,
        [k]: typeof valid[k] === "number" ? "not-a-number" : typeof valid[k] === "string" ? 12345 : "wrong-type",
      });
  }
  variants.push("not an object");
  return variants;
}
