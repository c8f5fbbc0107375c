/**
 * Splits the `--mcp "<command> [args…]"` string into the program and its arguments, as a POSIX shell splits words
 * (whitespace, '…' literally, "…" with \" \\ \$ \` escapes, \x outside quotes), without running a shell: no
 * expansion, no redirection, nothing interpreted.
 */

import { CliError } from "./args.js";

export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\") {
      if (i + 1 < text.length) word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new CliError(`--mcp: unterminated ${quote} quote in ${JSON.stringify(text)}`);
  if (inWord) words.push(word);
  if (words.length === 0)
    throw new CliError('--mcp needs a command, e.g. --mcp "npx -y @modelcontextprotocol/server-memory"');
  return words;
}
