/**
 * The verdict fast path keeps no state in its modules (docs/project/architecture.md "The engine", verdict/): what a
 * check spends, its budget and the member a walk leaves to the check loop are on the tally each validator threads
 * through its checks. Measured with the TypeScript compiler: no module-level `let` or `var`, and no module-level
 * `const` holding an object, an array, a class instance or a call's result, unless its type is read-only.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { repoRoot } from "../suite/locate.js";

/** The module-level declarations of `text` that hold mutable state, as `file:line name`. */
function moduleState(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const constant = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const init = declaration.initializer;
      const holdsObject =
        init !== undefined &&
        (ts.isObjectLiteralExpression(init) ||
          ts.isArrayLiteralExpression(init) ||
          ts.isNewExpression(init) ||
          ts.isCallExpression(init));
      const readOnly = declaration.type !== undefined && /^(readonly |Readonly)/.test(declaration.type.getText(source));
      if (!constant || (holdsObject && !readOnly)) {
        const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1;
        found.push(`${path}:${line} ${declaration.name.getText(source)}`);
      }
    }
  }
  return found;
}

test("the verdict fast path's modules hold no mutable state", () => {
  const dir = join(repoRoot, "src", "engine", "verdict");
  const files = readdirSync(dir).filter((name) => name.endsWith(".ts"));
  assert.ok(files.length >= 5, `the folder was read (${files.length} files)`);
  const found = files.flatMap((name) =>
    moduleState(`src/engine/verdict/${name}`, readFileSync(join(dir, name), "utf8")),
  );
  assert.deepEqual(found, [], "move these onto the tally (tally.ts) or the builder");
});

test("the measure finds module-level state", () => {
  const text = [
    "let deciding = false;",
    "const tally = new Tally();",
    "const deferred: { node: unknown } = { node: undefined };",
    "const NONE: never[] = [];",
    "const ANY = fastNode({});",
    "const LIMIT = 1024;",
    "const EMPTY: readonly never[] = [];",
    "export const enum Verdict { VALID = 0 }",
    "function f() { let local = 0; return local; }",
  ].join("\n");
  assert.deepEqual(moduleState("x.ts", text), [
    "x.ts:1 deciding",
    "x.ts:2 tally",
    "x.ts:3 deferred",
    "x.ts:4 NONE",
    "x.ts:5 ANY",
  ]);
});
