/** The annotation suite (annotations/tests): every case compatible with 2020-12, through `annotations()`. */

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { compile } from "../../src/index.js";
import { resolveUri } from "../../src/engine/json/uri.js";
import { DEFAULT_BASE_URI } from "../../src/engine/compile/compile-options.js";
import { jsonFiles, locateSuite } from "./locate.js";

interface AnnotationSuite {
  suite: {
    description: string;
    compatibility?: string;
    schema: unknown;
    externalSchemas?: Record<string, unknown>;
    tests: {
      instance: unknown;
      assertions: { location: string; keyword: string; expected: Record<string, unknown> }[];
    }[];
  }[];
}

/** "2020", "<=2019", "=2020", "6,<=2019": whether release 2020 is included (annotations/README.md). */
function compatibleWith2020(compatibility: string | undefined): boolean {
  if (compatibility === undefined) return true;
  const release = (v: string): number => (Number(v) < 100 ? Number(v) : Number(v) * 1);
  return compatibility.split(",").every((c) => {
    const part = c.trim();
    if (part.startsWith("<=")) return 2020 <= release(part.slice(2));
    if (part.startsWith("=")) return release(part.slice(1)) === 2020;
    return release(part) <= 2020 || Number(part) < 100;
  });
}

/** Where each schema resource sits in the document: the suite names schema locations by document pointer. */
function resourcePointers(schema: unknown): Map<string, string> {
  const map = new Map<string, string>();
  const walk = (value: unknown, base: string, pointer: string): void => {
    if (typeof value !== "object" || value === null) return;
    let here = base;
    const id = (value as Record<string, unknown>)["$id"];
    if (!Array.isArray(value) && typeof id === "string") {
      here = resolveUri(base, id).split("#")[0] as string;
      map.set(here, pointer);
    }
    for (const [k, v] of Object.entries(value))
      walk(v, here, `${pointer}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
  };
  map.set(DEFAULT_BASE_URI, "");
  walk(schema, DEFAULT_BASE_URI, "");
  return map;
}

const dir = join(locateSuite(), "annotations", "tests");
for (const file of jsonFiles(dir, false)) {
  const { suite } = JSON.parse(readFileSync(join(dir, file), "utf8")) as AnnotationSuite;
  describe(`annotations/${file.replace(/\.json$/, "")}`, () => {
    for (const c of suite) {
      if (!compatibleWith2020(c.compatibility)) continue;
      describe(c.description, () => {
        c.tests.forEach((t, i) => {
          test(`instance ${i}: ${JSON.stringify(t.instance).slice(0, 40)}`, () => {
            const validator = compile(c.schema, { schemaRegistry: c.externalSchemas ?? {} });
            const annotations = validator.annotations(t.instance);
            const resources = resourcePointers(c.schema);
            for (const a of t.assertions) {
              const found: Record<string, unknown> = {};
              for (const x of annotations) {
                if (x.keyword !== a.keyword || x.instanceLocation !== a.location) continue;
                const [uri, fragment] = x.absoluteKeywordLocation.split("#") as [string, string];
                const inDocument = (resources.get(uri) ?? "") + decodeURI(fragment);
                const key = "#" + encodeURI(inDocument.slice(0, inDocument.lastIndexOf("/")));
                found[key] = x.value;
              }
              assert.deepEqual(found, a.expected, `${a.keyword} at "${a.location}"`);
            }
          });
        });
      });
    }
  });
}
