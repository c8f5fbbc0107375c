/**
 * A server's tools listed again after `tools/list_changed`: once the notifications stop for
 * `LIST_CHANGED_DEBOUNCE_MS` (and once more if more came during the listing). A server that makes the gateway relist
 * more than `maxListChanged` times in `STORM_WINDOW_MS`, or whose listing passes its bounds, is isolated.
 */

import { errorMessage, isInstance } from "../../../engine/errors.js";
import { oneLine } from "../../args.js";
import { ListingBound } from "./listing.js";

/** `list_changed` notifications within this long are answered by one listing. */
const LIST_CHANGED_DEBOUNCE_MS = 250;
/** The window `maxListChanged` counts relistings in. */
const STORM_WINDOW_MS = 60_000;

/** What relisting needs of its server, for the start (`generation`) it was asked in. */
export interface RelistHost {
  /** Whether that start is still the server's. */
  current(generation: number): boolean;
  /** Whether that start is still the server's and it is up. */
  live(generation: number): boolean;
  /** Every page of `tools/list`. */
  list(): Promise<unknown[]>;
  /** The tools listed again. */
  listed(tools: unknown[]): void;
  report(line: string): void;
  /** Takes the server down (if that start is still its own). */
  fail(generation: number, reason: string): void;
}

export class Relisting {
  private listing: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When each relisting of the last `STORM_WINDOW_MS` began. */
  private relists: number[] = [];

  constructor(
    private readonly host: RelistHost,
    private readonly maxListChanged: number,
  ) {}

  /** A `list_changed` from the server's start `generation`, which is up. */
  changed(generation: number): void {
    if (this.listing !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.host.live(generation)) this.listAgain(generation);
    }, LIST_CHANGED_DEBOUNCE_MS);
  }

  /** No relisting planned any more (the server went down or stopped). */
  cancel(): void {
    clearTimeout(this.timer);
  }

  private listAgain(generation: number): void {
    this.listing = (async () => {
      do {
        this.again = false;
        const now = Date.now();
        this.relists = this.relists.filter((at) => now - at < STORM_WINDOW_MS);
        this.relists.push(now);
        if (this.relists.length > this.maxListChanged) {
          const reason =
            `it sent tools/list_changed more than ${this.maxListChanged} times in ` +
            `${STORM_WINDOW_MS / 1000} s (--max-list-changed)`;
          this.host.fail(generation, reason);
          return;
        }
        let tools: unknown[];
        try {
          tools = await this.host.list();
        } catch (e) {
          if (!this.host.current(generation)) return;
          this.host.report(`listing its tools again failed: ${oneLine(errorMessage(e))}`);
          if (isInstance(e, ListingBound)) this.host.fail(generation, oneLine(errorMessage(e)));
          return;
        }
        if (!this.host.live(generation)) return;
        this.host.listed(tools);
      } while (this.again);
    })().finally(() => {
      this.listing = undefined;
    });
  }
}
