/**
 * Reading JSON for the CLI, from a file or, for the path `-`, from stdin: every failure becomes a one-line
 * `CliError` (exit 2).
 */

import { readFileSync } from "node:fs";
import { errorMessage } from "../engine/errors.js";
import { CliError, errorCode, oneLine } from "./args.js";

/** The path that names stdin. */
export const STDIN = "-";

/** How messages and verdict lines name an input. */
export function inputName(path: string): string {
  return path === STDIN ? "<stdin>" : path;
}

/** Stdin can be read once: at most one of `paths` may be `-`. */
export function checkStdinOnce(paths: readonly string[]): void {
  if (paths.filter((p) => p === STDIN).length > 1) throw new CliError("stdin (-) can be read only once");
}

function readText(path: string, what = "file"): string {
  try {
    return readFileSync(path === STDIN ? 0 : path, "utf8");
  } catch (e) {
    const code = errorCode(e);
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : oneLine(errorMessage(e));
    throw new CliError(`cannot read ${what} ${inputName(path)}: ${reason}`);
  }
}

export function readJson(path: string, what = "file"): unknown {
  const text = readText(path, what);
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (e) {
    throw new CliError(`${what} ${inputName(path)} is not valid JSON: ${oneLine(errorMessage(e))}`);
  }
}
