import js from "@eslint/js";
import tseslint from "typescript-eslint";
import stylistic from "@stylistic/eslint-plugin";

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "fixtures/json-schema-test-suite/", "docs/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "NewExpression[callee.name='Function']",
          message: "No generated code: the library must run under a CSP without unsafe-eval.",
        },
        {
          selector: "CallExpression[callee.name='eval']",
          message: "No generated code: the library must run under a CSP without unsafe-eval.",
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Source lines stay within 120 columns, strings and comments included (prettier wraps code, not text).
    files: ["src/**/*.ts"],
    plugins: { "@stylistic": stylistic },
    rules: { "@stylistic/max-len": ["error", { code: 120, tabWidth: 2 }] },
  },
  {
    // The engine and vocabularies run in browsers and edge workers: no Node-only module or global.
    files: ["src/engine/**/*.ts", "src/vocabularies/**/*.ts", "src/adapters/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["node:*"], message: "The engine must not use Node-only APIs." }] },
      ],
      "no-restricted-globals": [
        "error",
        "process",
        "Buffer",
        "require",
        "__dirname",
        "__filename",
        "global",
        "setImmediate",
      ],
    },
  },
  {
    files: [".dependency-cruiser.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable" } },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
