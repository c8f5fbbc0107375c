/**
 * The runtime's functions stay short (docs/project/architecture.md "The runtime"): no function, method, accessor or
 * arrow in `src/runtime` spans more than 60 lines or takes more than four parameters, unless it is listed below with
 * the reason it is better as it is. A listed exception that no longer applies fails too, so the list stays true.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { repoRoot } from "../suite/locate.js";

const MAX_LINES = 60;
const MAX_PARAMETERS = 4;

/** `file name`: why the function is better as it is. */
const EXCEPTIONS = new Map<string, string>([
  [
    "src/runtime/boundary/withheld-model-text.ts constraint",
    "a table in code: one short case per JSON Schema keyword, each the sentence that keyword's failure reads as",
  ],
]);

interface Finding {
  readonly key: string;
  readonly where: string;
  readonly lines: number;
  readonly parameters: number;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every function-like node with a body in `file` over either bound. */
function measure(path: string, text: string): Finding[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      const parameters = node.parameters.length;
      if (lines > MAX_LINES || parameters > MAX_PARAMETERS) {
        const name = node.name !== undefined ? node.name.getText(source) : "(anonymous)";
        found.push({ key: `${path} ${name}`, where: `${path}:${first + 1}`, lines, parameters });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function runtimeFindings(): Finding[] {
  return typescriptFiles(join(repoRoot, "src", "runtime")).flatMap((file) =>
    measure(relative(repoRoot, file).split("\\").join("/"), readFileSync(file, "utf8")),
  );
}

test("no runtime function is over 60 lines or four parameters, but the listed exceptions", () => {
  const unlisted = runtimeFindings()
    .filter((f) => !EXCEPTIONS.has(f.key))
    .map((f) => `${f.where} (${f.lines} lines, ${f.parameters} parameters)`);
  assert.deepEqual(unlisted, [], "split these at their seams, or list them with a reason");
});

test("every listed exception still applies", () => {
  const found = new Set(runtimeFindings().map((f) => f.key));
  assert.deepEqual(
    [...EXCEPTIONS.keys()].filter((key) => !found.has(key)),
    [],
    "remove these from the list: they are within the bounds now",
  );
});

test("the measure finds a long function and a long parameter list", () => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const text = `function long() {\n${body}\n}\nconst wide = (a, b, c, d, e) => a;\nfunction fine(a, b) { return a; }\n`;
  const found = measure("x.ts", text).map((f) => [f.key, f.lines, f.parameters]);
  assert.deepEqual(found, [
    ["x.ts long", MAX_LINES + 2, 0],
    ["x.ts (anonymous)", 1, 5],
  ]);
});
