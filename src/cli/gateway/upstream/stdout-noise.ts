/**
 * What a server wrote on its stdout that is not a bounded JSON-RPC message. A stdio server's banner or stray print is
 * skipped, as the SDK's stdio client skips it, and reported at the 1st, 10th, 100th … such line; past
 * `--max-stdout-noise` lines, or for a message over `--max-message-bytes` (any transport), the server is isolated.
 */

import { reportedAt } from "../audit.js";
import type { LineFault } from "../transport/line-transport.js";

/** The bounds a fault is judged by. */
export interface NoiseBounds {
  readonly maxMessageBytes: number;
  readonly maxStdoutNoise: number;
}

/** What to do about one fault: a line to report (if any), and the reason to isolate the server (if it must be). */
export interface Judged {
  readonly report?: string;
  readonly isolate?: string;
}

function faultText(fault: LineFault, max: number): string {
  if (fault.kind === "oversized") return `it sent a message of more than ${max} bytes (--max-message-bytes)`;
  return fault.kind === "not_json"
    ? "it wrote a line that is not JSON"
    : "it wrote JSON that is not a JSON-RPC message";
}

/** Judges the `count`th fault since the server started (`stdio`: whether its stdout is a child's). */
export function judgeFault(fault: LineFault, count: number, stdio: boolean, bounds: NoiseBounds): Judged {
  if (fault.kind === "oversized") return { isolate: faultText(fault, bounds.maxMessageBytes) };
  if (stdio && count <= bounds.maxStdoutNoise) {
    if (!reportedAt(count)) return {};
    const what = faultText(fault, bounds.maxMessageBytes);
    return {
      report:
        `${what} on stdout: skipped (${count} so far; more than ${bounds.maxStdoutNoise} ` +
        "isolate it, --max-stdout-noise)",
    };
  }
  return {
    isolate:
      `it wrote more than ${bounds.maxStdoutNoise} lines on stdout that are not JSON-RPC ` +
      "messages (--max-stdout-noise)",
  };
}
