/**
 * Reading JSON for the CLI, from a file or, for the path `-`, from stdin: at most `--max-input-bytes` of it (a file
 * such as /dev/zero never ends), parsed, and refused when a number in it is not the number a double holds
 * (exact-numbers.ts). Every failure is a one-line `CliError`: exit 2, or 3 for the size cap (a limit, no verdict).
 */

import { createReadStream } from "node:fs";
import { errorMessage, isInstance } from "../engine/errors.js";
import { CliError, errorCode, ExitCode, oneLine } from "./args.js";
import { inexactNumber } from "./exact-numbers.js";
import { word } from "./terminal-text.js";

/** The path that names stdin. */
export const STDIN = "-";

/** The cap on each input the CLI reads when `--max-input-bytes` is not given: 64 MiB. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** How messages and verdict lines name an input. */
export function inputName(path: string): string {
  return path === STDIN ? "<stdin>" : path;
}

/** Stdin can be read once: at most one of `paths` may be `-`. */
export function checkStdinOnce(paths: readonly string[]): void {
  if (paths.filter((p) => p === STDIN).length > 1) throw new CliError("stdin (-) can be read only once");
}

/** The text of `path` (UTF-8), read in chunks and abandoned as soon as it is longer than `maxBytes`. */
async function readText(path: string, what: string, maxBytes: number): Promise<string> {
  const stream = path === STDIN ? process.stdin : createReadStream(path);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes)
        throw new CliError(
          `${what} ${inputName(path)} is larger than ${maxBytes} bytes (the input cap; --max-input-bytes)`,
          ExitCode.executionFailure,
        );
      chunks.push(chunk);
    }
  } catch (e) {
    if (isInstance(e, CliError)) throw e;
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
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON value in `path` (`what` names it in messages), read under the input cap. */
/** ` (line L, column C)` for the character offset a JSON.parse message names, when it names one but not its line. */
function lineAndColumn(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined || /\bline\b/.test(message)) return "";
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = Number(position) - before.lastIndexOf("\n");
  return ` (line ${line}, column ${column})`;
}

export async function readJson(path: string, what: string, maxBytes: number): Promise<unknown> {
  const read = await readText(path, what, maxBytes);
  const text = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    const message = oneLine(errorMessage(e));
    throw new CliError(`${what} ${inputName(path)} is not valid JSON: ${message}${lineAndColumn(text, message)}`);
  }
  const inexact = inexactNumber(text);
  if (inexact !== undefined) {
    const { literal, readAs, line, column, pointer } = inexact;
    throw new CliError(
      `${what} ${inputName(path)} has the number ${literal} at line ${line}, column ${column} ` +
        `(${pointer === "" ? "the root" : `at ${word(pointer)}`}), which a double cannot hold: it would be read as ` +
        `${readAs}; the CLI refuses it rather than give a verdict on a rounded number`,
    );
  }
  return value;
}
