/**
 * `--restart` for one stdio server: the delays double from the first to the last, and a server that stayed up for
 * `STABLE_MS` starts again from the first. One restart is planned at a time; stopping the server cancels it.
 */

const FIRST_RESTART_MS = 500;
const LAST_RESTART_MS = 30_000;
const STABLE_MS = 60_000;

export class Restarts {
  private count = 0;
  private upSince = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `enabled`: `--restart` for a stdio server; `report` says each restart planned. */
  constructor(
    private readonly enabled: boolean,
    private readonly report: (line: string) => void,
  ) {}

  /** The server is up: its stable time counts from now. */
  up(): void {
    this.upSince = Date.now();
  }

  /** The server went down (`wasUp`: after it was up): when enabled, `restart` runs after the next delay. */
  plan(wasUp: boolean, restart: () => void): void {
    if (!this.enabled) return;
    if (wasUp && Date.now() - this.upSince >= STABLE_MS) this.count = 0;
    const delay = Math.min(LAST_RESTART_MS, FIRST_RESTART_MS * 2 ** this.count++);
    this.report(`restarting in ${delay} ms (--restart)`);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      restart();
    }, delay);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
