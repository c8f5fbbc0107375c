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
  return ["nestedNot", "nestedAllOf", "nestedProperties", "wideProperties", "longConst", "sharedApplicator"].includes(
    kind,
  )
    ? generateSchema(spec)
    : generateData(spec);
}
