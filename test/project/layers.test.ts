/**
 * The dependency rules that keep folders in the order data flows (.dependency-cruiser.cjs, run by `npm run lint`): a
 * runtime folder, a folder inside providers/, or a room of the gateway (transport, upstream, policy, routing) that imports one
 * above it fails, and the source as it is passes. And
 * no two folders of `src` import each other, measured on the import graph dependency-cruiser reports (type imports
 * included): at every level of `src`, the folders side by side form no cycle, even through the files beside them.
 */

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { test } from "node:test";
import { repoRoot } from "../suite/locate.js";

const depcruise = join(repoRoot, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const config = join(repoRoot, ".dependency-cruiser.cjs");

interface Report {
  readonly modules: readonly { source: string; dependencies: readonly { resolved: string }[] }[];
  readonly summary: { violations: readonly { rule: { name: string } }[] };
}

/** dependency-cruiser's report on the tree at `cwd` (its `src`). */
function cruise(cwd: string): Report {
  const out = execFileSync(process.execPath, [depcruise, "--config", config, "--output-type", "json", "src"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as Report;
}

/** The rule names dependency-cruiser reports for the tree at `cwd`. */
function violations(cwd: string): string[] {
  return cruise(cwd).summary.violations.map((v) => v.rule.name);
}

/** Every import from one file of `src` to another, as [importer, imported]. */
function imports(report: Report): [string, string][] {
  return report.modules.flatMap((m) =>
    m.dependencies
      .filter((d) => m.source.startsWith("src/") && d.resolved.startsWith("src/"))
      .map((d): [string, string] => [m.source, d.resolved]),
  );
}

/**
 * The cycles between folders: for each directory, its subfolders are one node each and every other file is a node of
 * its own (so a path from one subfolder to another through a file beside them counts); a strongly connected
 * component holding two subfolders or more is a cycle between them. Each is given as the directory's folders, sorted.
 */
function folderCycles(edges: readonly [string, string][]): string[][] {
  const files = new Set(edges.flat());
  const directories = new Set<string>();
  for (const file of files) {
    for (let dir = posix.dirname(file); dir !== "."; dir = posix.dirname(dir)) directories.add(dir);
  }
  const cycles: string[][] = [];
  for (const dir of [...directories].sort()) {
    const node = (file: string): string => {
      if (!file.startsWith(`${dir}/`)) return file;
      const rest = file.slice(dir.length + 1).split("/");
      return rest.length > 1 ? `${dir}/${rest[0]}/` : file;
    };
    const graph = new Map<string, Set<string>>();
    for (const [from, to] of edges) {
      const a = node(from);
      const b = node(to);
      if (a === b) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
      if (!graph.has(b)) graph.set(b, new Set());
    }
    for (const component of stronglyConnected(graph)) {
      const folders = component.filter((n) => n.endsWith("/")).sort();
      if (folders.length > 1) cycles.push(folders);
    }
  }
  return cycles;
}

/** Tarjan's strongly connected components of `graph`. */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
}

/** Writes `files` (path → text) into a fresh directory with a tsconfig, runs `use` on it, and removes it. */
function withTree<T>(files: Record<string, string>, use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "layers-"));
  try {
    const all = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }),
      ...files,
    };
    for (const [path, text] of Object.entries(all)) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a runtime folder that imports a folder above it breaks the rule", () => {
  const found = withTree(
    {
      "src/runtime/admission/bundle.ts": 'import { ok } from "../errors/result.js";\nexport const bundle = ok;\n',
      "src/runtime/errors/result.ts": "export const ok = 1;\n",
      "src/runtime/errors/upward.ts": 'import { bundle } from "../admission/bundle.js";\nexport const up = bundle;\n',
      "src/runtime/boundary/fine.ts": 'import { ok } from "../errors/result.js";\nexport const fine = ok;\n',
    },
    violations,
  );
  assert.deepEqual(found, ["runtime-errors-imports-downwards"]);
});

test("a folder inside providers/ that imports one after it, or the walk above them, breaks the rule", () => {
  const found = withTree(
    {
      "src/runtime/providers/profiles/profile.ts": "export const profile = 1;\n",
      "src/runtime/providers/translation/draft.ts":
        'import { profile } from "../profiles/profile.js";\nexport const draft = profile;\n',
      "src/runtime/providers/rules/rule.ts":
        'import { draft } from "../translation/draft.js";\nexport const rule = draft;\n',
      "src/runtime/providers/walk.ts": 'import { rule } from "./rules/rule.js";\nexport const walk = rule;\n',
      "src/runtime/providers/translation/upward.ts":
        'import { rule } from "../rules/rule.js";\nimport { walk } from "../walk.js";\nexport const up = [rule, walk];\n',
    },
    violations,
  );
  assert.deepEqual(found, ["providers-translation-imports-downwards", "providers-translation-imports-downwards"]);
});

test("a room of the gateway that imports a room above it, or the routing on top, breaks the rule", () => {
  const g = "src/cli/gateway";
  const found = withTree(
    {
      [`${g}/sdk.ts`]: "export const sdk = 1;\n",
      [`${g}/transport/line.ts`]: 'import { sdk } from "../sdk.js";\nexport const line = sdk;\n',
      [`${g}/upstream/upstream.ts`]: 'import { line } from "../transport/line.js";\nexport const up = line;\n',
      [`${g}/policy/catalog.ts`]: 'import { sdk } from "../sdk.js";\nexport const catalog = sdk;\n',
      [`${g}/gateway.ts`]:
        'import { up } from "./upstream/upstream.js";\nimport { catalog } from "./policy/catalog.js";\n' +
        "export const gateway = [up, catalog];\n",
      [`${g}/transport/upward.ts`]: 'import { catalog } from "../policy/catalog.js";\nexport const a = catalog;\n',
      [`${g}/upstream/upward.ts`]: 'import { gateway } from "../gateway.js";\nexport const b = gateway;\n',
      [`${g}/routing/calls.ts`]: 'import { catalog } from "../policy/catalog.js";\nexport const calls = catalog;\n',
      [`${g}/policy/upward.ts`]: 'import { calls } from "../routing/calls.js";\nexport const c = calls;\n',
      [`${g}/routing/upward.ts`]: 'import { gateway } from "../gateway.js";\nexport const d = gateway;\n',
    },
    violations,
  );
  assert.deepEqual(found.sort(), [
    "cli-gateway-policy-imports-downwards",
    "cli-gateway-routing-imports-downwards",
    "cli-gateway-transport-imports-downwards",
    "cli-gateway-upstream-imports-downwards",
  ]);
});

let source: Report | undefined;
/** The report on this repository's `src`, cruised once for the tests that read it. */
function sourceReport(): Report {
  source ??= cruise(repoRoot);
  return source;
}

test("the source keeps the rules", () => {
  assert.deepEqual(
    sourceReport().summary.violations.map((v) => v.rule.name),
    [],
  );
});

test("the folder measure finds a cycle between two folders, through a file beside them too", () => {
  const p = "src/runtime/providers";
  // The layout before the walk moved above rules/ and translation/.
  const before: [string, string][] = [
    [`${p}/schema-check.ts`, `${p}/translation/walk.ts`],
    [`${p}/translation/walk.ts`, `${p}/rules/index.ts`],
    [`${p}/rules/index.ts`, `${p}/rules/objects.ts`],
    [`${p}/rules/objects.ts`, `${p}/translation/merge.ts`],
  ];
  assert.deepEqual(folderCycles(before), [[`${p}/rules/`, `${p}/translation/`]]);
  const throughAFile: [string, string][] = [
    ["src/engine/json/json.ts", "src/engine/limits.ts"],
    ["src/engine/limits.ts", "src/engine/compile/compiler.ts"],
    ["src/engine/compile/compiler.ts", "src/engine/json/json.ts"],
  ];
  assert.deepEqual(folderCycles(throughAFile), [["src/engine/compile/", "src/engine/json/"]]);
  const sharedBelow: [string, string][] = [
    ["src/engine/json/json.ts", "src/engine/errors.ts"],
    ["src/engine/compile/compiler.ts", "src/engine/errors.ts"],
    ["src/engine/compile/compiler.ts", "src/engine/json/json.ts"],
  ];
  assert.deepEqual(folderCycles(sharedBelow), []);
});

test("no two folders of src import each other, directly or through other files", () => {
  const edges = imports(sourceReport());
  assert.ok(edges.length > 1000, `the import graph was read (${edges.length} imports)`);
  assert.deepEqual(folderCycles(edges), []);
});
