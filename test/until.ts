/** Waiting in tests for what happens on its own time (a server's restart, a notification, a file written). */

import assert from "node:assert/strict";

/** Waits, bounded and by polling, until `check` gives a value (not undefined or false), and returns it. */
export async function until<T>(what: string, check: () => T | undefined | false, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
