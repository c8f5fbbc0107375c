import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "fixtures/json-schema-test-suite/", "docs/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='Function']", message: "No generated code: the library must run under a CSP without unsafe-eval." },
        { selector: "CallExpression[callee.name='eval']", message: "No generated code: the library must run under a CSP without unsafe-eval." }
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }]
    }
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } }
  }
);
