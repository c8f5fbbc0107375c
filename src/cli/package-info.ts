/** The package's own metadata (name, version, links), read from the package.json next to dist/. */

import { readFileSync } from "node:fs";

export interface PackageInfo {
  name: string;
  version: string;
  homepage: string;
  issues: string;
  source: string;
}

const NAME = "backplane-agent-runtime";
const NPM_PAGE = `https://www.npmjs.com/package/${NAME}`;

let cached: PackageInfo | undefined;

/** `dist/cli/main.js` → `../../package.json`; the test build (`build/src/cli`) is one level deeper. */
export function packageInfo(): PackageInfo {
  if (cached !== undefined) return cached;
  let manifest: Record<string, unknown> = {};
  for (const relative of ["../../package.json", "../../../package.json"]) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as unknown;
      if (typeof parsed === "object" && parsed !== null && (parsed as Record<string, unknown>)["name"] === NAME) {
        manifest = parsed as Record<string, unknown>;
        break;
      }
    } catch {
      // try the next location
    }
  }
  const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
  const field = (obj: unknown, key: string): unknown =>
    typeof obj === "object" && obj !== null && Object.hasOwn(obj, key)
      ? (obj as Record<string, unknown>)[key]
      : undefined;
  const repository = str(field(manifest, "repository")) ?? str(field(field(manifest, "repository"), "url"));
  const source = repository?.replace(/^git\+/, "").replace(/\.git$/, "");
  cached = {
    name: NAME,
    version: str(field(manifest, "version")) ?? "0.0.0",
    homepage: str(field(manifest, "homepage")) ?? NPM_PAGE,
    issues:
      str(field(field(manifest, "bugs"), "url")) ??
      str(field(manifest, "bugs")) ??
      (source !== undefined ? `${source}/issues` : NPM_PAGE),
    source: source ?? NPM_PAGE,
  };
  return cached;
}
