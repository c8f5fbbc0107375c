/**
 * The clients' requests running at once, every client's together, bounded (`--max-running-requests`): what a client
 * keeps running — its params, a request to a server that may never answer, a timer — is held to the bound whatever
 * it sends. At the bound a request is refused at once (a tool call with a tool error, calls.ts; any other request
 * with a JSON-RPC error, methods.ts), and the refusals are reported at the 1st, 10th, 100th, …
 */

import { reportedAt, type Reporter } from "../audit.js";

export class RunningRequests {
  private running = 0;
  private refused = 0;

  constructor(
    /** The most requests running at once. */
    readonly max: number,
    private readonly reporter: Reporter,
  ) {}

  /**
   * Counts one more request as running, or refuses it when the bound is reached (false: the refusal is counted, and
   * reported at the 1st, 10th, 100th, …). Every `enter` that returned true is followed by one `leave`.
   */
  enter(): boolean {
    if (this.running < this.max) {
      this.running++;
      return true;
    }
    this.refused++;
    if (reportedAt(this.refused))
      this.reporter.say(
        `${this.refused} request(s) refused: ${this.max} were running at once (--max-running-requests)`,
      );
    return false;
  }

  /** A request counted by `enter` has ended. */
  leave(): void {
    this.running--;
  }
}
