/**
 * Builders for fixtures/hostile values too large to store, or that JSON cannot write (one object shared by several
 * parents) (fixtures/hostile/README.md); loops only, never recursion.
 */

type Spec = Record<string, unknown>;

function num(spec: Spec, field: string, fallback?: number): number {
  const v = spec[field] ?? fallback;
  if (typeof v !== "number") throw new Error(`generator ${String(spec["kind"])} needs a number "${field}"`);
  return v;
}

function str(spec: Spec, field: string, fallback: string): string {
  const v = spec[field] ?? fallback;
  if (typeof v !== "string") throw new Error(`generator ${String(spec["kind"])} needs a string "${field}"`);
  return v;
}

/** A deterministic pseudo-random string of `length` code units drawn from `alphabet` (a linear congruential walk). */
function randomString(length: number, alphabet: string, seed: number): string {
  let x = seed >>> 0;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function buildData(spec: Spec): unknown {
  switch (spec["kind"]) {
    case "nestedArrays": {
      const depth = num(spec, "depth");
      let v: unknown[] = Object.hasOwn(spec, "leaf") ? [clone(spec["leaf"])] : [];
      for (let i = 1; i < depth; i++) v = [v];
      return v;
    }
    case "nestedObjects": {
      const depth = num(spec, "depth");
      const key = str(spec, "key", "a");
      let v: Record<string, unknown> = {};
      if (Object.hasOwn(spec, "leaf")) setOwn(v, key, clone(spec["leaf"]));
      for (let i = 1; i < depth; i++) {
        const outer: Record<string, unknown> = {};
        setOwn(outer, key, v);
        v = outer;
      }
      return v;
    }
    case "longString":
      return str(spec, "char", "a").repeat(num(spec, "length")) + str(spec, "suffix", "");
    case "wideObject": {
      const o: Record<string, unknown> = {};
      const key = str(spec, "key", "k");
      for (let i = 0; i < num(spec, "length"); i++) setOwn(o, key + i, i);
      return o;
    }
    case "randomString":
      return (
        randomString(num(spec, "length"), str(spec, "alphabet", "ab"), num(spec, "seed", 1)) + str(spec, "suffix", "")
      );
    case "randomKeys": {
      const o: Record<string, unknown> = {};
      const keyLength = num(spec, "keyLength");
      const alphabet = str(spec, "alphabet", "ab");
      for (let i = 0; i < num(spec, "count"); i++) setOwn(o, randomString(keyLength, alphabet, i + 1), i);
      return o;
    }
    case "longArray": {
      const element = str(spec, "element", "index");
      const key = str(spec, "key", "a");
      const a: unknown[] = [];
      for (let i = 0; i < num(spec, "length"); i++) {
        if (element === "index") a.push(i);
        else if (element === "string") a.push(String(i));
        else {
          const o: Record<string, unknown> = {};
          setOwn(o, key, i);
          a.push(o);
        }
      }
      if (Object.hasOwn(spec, "suffix")) a.push(clone(spec["suffix"]));
      return a;
    }
    default:
      throw new Error(`unknown dataGenerator kind ${String(spec["kind"])}`);
  }
}

export function generateData(spec: Spec): unknown {
  if (!Object.hasOwn(spec, "repeat")) return buildData(spec);
  const out: unknown[] = [];
  for (let i = 0; i < num(spec, "repeat"); i++) out.push(buildData(spec));
  return out;
}

export function generateSchema(spec: Spec): unknown {
  const leaf = (): unknown => (Object.hasOwn(spec, "leaf") ? clone(spec["leaf"]) : {});
  switch (spec["kind"]) {
    case "nestedNot": {
      let s = leaf();
      for (let i = 0; i < num(spec, "depth"); i++) s = { not: s };
      return s;
    }
    case "nestedAllOf": {
      let s = leaf();
      for (let i = 0; i < num(spec, "depth"); i++) s = { allOf: [s] };
      return s;
    }
    case "nestedProperties": {
      const key = str(spec, "key", "a");
      let s = leaf();
      for (let i = 0; i < num(spec, "depth"); i++) {
        const props: Record<string, unknown> = {};
        setOwn(props, key, s);
        s = { properties: props };
      }
      return s;
    }
    case "wideProperties": {
      const key = str(spec, "key", "k");
      const props: Record<string, unknown> = {};
      const sub = Object.hasOwn(spec, "subschema") ? spec["subschema"] : {};
      for (let i = 0; i < num(spec, "width"); i++) setOwn(props, key + i, clone(sub));
      return { properties: props };
    }
    case "longConst":
      return { const: str(spec, "char", "a").repeat(num(spec, "length")) };
    case "patternList": {
      const template = str(spec, "template", "");
      const sources = Array.from({ length: num(spec, "count") }, (_, i) => template.replaceAll("{i}", String(i + 1)));
      if (str(spec, "applicator", "allOf") === "allOf") return { allOf: sources.map((pattern) => ({ pattern })) };
      const patterns: Record<string, unknown> = {};
      for (const source of sources)
        setOwn(patterns, source, Object.hasOwn(spec, "value") ? clone(spec["value"]) : true);
      return { patternProperties: patterns };
    }
    case "repeatedPattern":
      return {
        pattern: str(spec, "prefix", "") + str(spec, "unit", "").repeat(num(spec, "count")) + str(spec, "suffix", ""),
      };
    case "astralClass": {
      let set = "";
      for (let lead = 0; lead < num(spec, "leads"); lead++) {
        for (let t = 0; t < num(spec, "trailsPerLead"); t++) set += String.fromCharCode(0xd800 + lead, 0xdc00 + 2 * t);
      }
      return { pattern: Array.from({ length: num(spec, "copies", 1) }, () => `[${set}]`).join("|") };
    }
    case "sharedApplicator": {
      // One object per level, held twice by the next: a DAG whose tree expansion has 2^depth leaves.
      const keyword = str(spec, "keyword", "anyOf");
      let s = leaf();
      for (let i = 0; i < num(spec, "depth"); i++) {
        const level: Record<string, unknown> = {};
        setOwn(level, keyword, [s, s]);
        s = level;
      }
      return s;
    }
    default:
      throw new Error(`unknown schemaGenerator kind ${String(spec["kind"])}`);
  }
}

/** Either kind of generator, told apart by its `kind`. */
export function generate(spec: Spec): unknown {
  const kind = String(spec["kind"]);
  return [
    "nestedNot",
    "nestedAllOf",
    "nestedProperties",
    "wideProperties",
    "longConst",
    "patternList",
    "repeatedPattern",
    "astralClass",
    "sharedApplicator",
  ].includes(kind)
    ? generateSchema(spec)
    : generateData(spec);
}
