/**
 * The clients' requests running at once, every client's together, bounded (`--max-running-requests`): what a client
 * keeps running — its params, a request to a server that may never answer, a timer — is held to the bound whatever
 * it sends. At the bound a request is refused at once (a tool call with a tool error, calls.ts; any other request
 * with a JSON-RPC error, methods.ts), and the refusals are reported at the 1st, 10th, 100th, …
 */

import type { Reporter } from "../audit.js";

export class RunningRequests {
  private running = 0;
  private refused = 0;

  constructor(
    /** The most requests running at once. */
    readonly max: number,
    private readonly reporter: Reporter,
  ) {}

  /** Whether one more request would pass the bound; when it would, the refusal is counted (and maybe reported). */
  full(): boolean {
    if (this.running < this.max) return false;
    this.refused++;
    if (/^10*$/.test(String(this.refused)))
      this.reporter.say(
        `${this.refused} request(s) refused: ${this.max} were running at once (--max-running-requests)`,
      );
    return true;
  }

  /** Runs `request`, counted as running until it settles. */
  async run<T>(request: () => Promise<T> | T): Promise<T> {
    this.running++;
    try {
      return await request();
    } finally {
      this.running--;
    }
  }
}
