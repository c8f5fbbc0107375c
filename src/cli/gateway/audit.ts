/**
 * What the gateway says (docs/guide/gateway.md §Audit): one-line reports on stderr, and the audit log, one JSON line
 * per call and per catalog event. Everything a server chose (names, descriptions, error texts, its stderr) goes
 * through `printable`, so no escape sequence, bidi control or invisible character reaches a terminal; in the audit
 * log the escapes are JSON's own, so each line still parses to the same text. Argument and result values are logged
 * only when asked for (`--audit-values`).
 */

import { createWriteStream, type WriteStream } from "node:fs";
import { oneLine } from "../args.js";
import { printable } from "../terminal-text.js";

/** How a call ended, as the audit log names it. */
export type CallOutcome = "dispatched" | "refused" | "withheld" | "held" | "timeout" | "failed";

/** How a catalog or server event ended. */
type CatalogOutcome =
  | "admitted"
  | "held"
  | "approved"
  | "quarantined"
  | "excluded"
  | "removed"
  | "started"
  | "failed"
  | "stopped"
  | "restarting";

/** One tool call: the name the client used, how it ended, where and why, and how long it took. */
export interface CallEntry {
  readonly server?: string;
  readonly tool: string;
  readonly outcome: CallOutcome;
  readonly stage?: string;
  readonly code?: string;
  readonly durationMs: number;
  /** Only with `--audit-values`. */
  readonly arguments?: unknown;
  /** Only with `--audit-values`: the result returned, or the one withheld. */
  readonly result?: unknown;
  /** Where the result holds hidden text and which code points (`--hidden-text`), never the text. */
  readonly hiddenText?: readonly { readonly pointer: string; readonly codePoints: readonly string[] }[];
}

/** A prompt, resource or elicitation whose text hides characters (`--hidden-text`): where, which, what was done. */
export interface AnswerEntry {
  readonly server: string;
  readonly method: string;
  /** The prompt's name, the resource's URI, or the elicitation's kind. */
  readonly name: string;
  readonly outcome: "reported" | "withheld";
  readonly hiddenText: readonly { readonly pointer: string; readonly codePoints: readonly string[] }[];
}

/** One catalog event: a tool admitted, held (with the changed pointers), quarantined…, or a server's state. */
export interface CatalogEntry {
  readonly server?: string;
  readonly tool?: string;
  readonly outcome: CatalogOutcome;
  readonly code?: string;
  readonly fields?: readonly string[];
  readonly message?: string;
}

/** Whether the `count`th of a repeated event is reported: the 1st, 10th, 100th, … (a flood says a few lines). */
export function reportedAt(count: number): boolean {
  return /^10*$/.test(String(count));
}

/** Writes the gateway's lines on stderr, each prefixed and made safe for a terminal. */
export class Reporter {
  constructor(private readonly write: (text: string) => void) {}

  /** A line of the gateway's own. */
  say(text: string): void {
    this.write(`backplane-schema gateway: ${printable(oneLine(text))}\n`);
  }

  /** A line a server wrote on its stderr, under its name. */
  server(name: string, line: string): void {
    this.write(`[${name}] ${printable(line)}\n`);
  }
}

/** The audit log (`--audit <file>` appends, `-` writes to stderr); without `--audit`, nothing is written. */
export class Audit {
  private readonly stream: WriteStream | undefined;

  constructor(
    target: string | undefined,
    private readonly values: boolean,
    private readonly stderr: (text: string) => void,
  ) {
    this.stream = target === undefined || target === "-" ? undefined : createWriteStream(target, { flags: "a" });
    this.writing = target !== undefined;
    this.stream?.on("error", (e) =>
      this.stderr(`backplane-schema gateway: cannot write the audit log: ${oneLine(e.message)}\n`),
    );
  }

  /** Whether the log is written at all (`--audit`): without it, a call's entry need not be made. */
  readonly writing: boolean;

  /** Whether values are logged (`--audit-values`). */
  get withValues(): boolean {
    return this.values;
  }

  call(entry: CallEntry): void {
    const { arguments: args, result, ...rest } = entry;
    this.line({ event: "call", ...rest, ...(this.values ? { arguments: args, result } : {}) });
  }

  catalog(entry: CatalogEntry): void {
    this.line({ event: "catalog", ...entry });
  }

  answer(entry: AnswerEntry): void {
    this.line({ event: "answer", ...entry });
  }

  private line(entry: Record<string, unknown>): void {
    if (!this.writing) return;
    let text: string;
    try {
      text = printable(JSON.stringify({ time: new Date().toISOString(), ...entry }));
    } catch {
      text = printable(
        JSON.stringify({ time: new Date().toISOString(), ...entry, arguments: "[not JSON]", result: "[not JSON]" }),
      );
    }
    if (this.stream === undefined) this.stderr(text + "\n");
    else this.stream.write(text + "\n");
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    const { stream } = this;
    if (stream === undefined) return Promise.resolve();
    return new Promise((resolve) => stream.end(resolve));
  }
}
