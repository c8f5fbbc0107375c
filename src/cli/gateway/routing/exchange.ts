/**
 * One MCP 2026-07-28 request the gateway answers over one or more round trips (MCP 2026-07-28
 * `basic/patterns/mrtr.mdx`). A 2025-11-25 server asks its client things while a call runs (`sampling/createMessage`,
 * `elicitation/create`, `roots/list`); a 2026-07-28 client cannot be asked, it is answered `input_required` with
 * the questions and retries with `inputResponses`. So the server's call is parked: it keeps running, its questions are
 * collected into the next answer, and the retry's responses answer them. A parked call nobody retries within its
 * time is cancelled at the server (the specification: never assume a retry).
 *
 * `RequestFront` is the client such a request is to the rest of the gateway: it declares what the request's `_meta`
 * declared, sends its log messages (at the level the request asked for, none when it asked none) and progress on the
 * request's stream, and turns every question into a step of the exchange.
 */

import { randomUUID } from "node:crypto";
import type { AskOptions, Front } from "./fronts.js";
import type { Message } from "../sdk.js";

/** A question for the client, as `inputRequests` carries it. */
export interface InputRequest {
  readonly method: string;
  readonly params?: unknown;
}

/** What a request's handler came to next: its result, its error, or questions for the client. */
export type Step =
  | { readonly kind: "done"; readonly result: unknown }
  | { readonly kind: "failed"; readonly error: unknown }
  | { readonly kind: "input"; readonly requests: Record<string, InputRequest> };

type Ended = Exclude<Step, { kind: "input" }>;

interface Question {
  readonly request: InputRequest;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/** Ends an exchange with an error the client is sent as it is (a JSON-RPC error, its HTTP status). */
export class ExchangeError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

export class Exchange {
  readonly id = randomUUID();
  /** The round the latest `input_required` answer opened; a retry answers the round it was given. */
  round = 0;
  /** The latest round a retry answered: a round is answered once. */
  answered = 0;
  readonly controller = new AbortController();
  private readonly questions = new Map<string, Question>();
  private asked = 0;
  /** How the request ended, when nobody was waiting for it yet. */
  private readonly steps: Ended[] = [];
  private taker: ((step: Step) => void) | undefined;
  private gathering = false;
  private expiry: NodeJS.Timeout | undefined;
  ended = false;

  constructor(
    readonly method: string,
    readonly digest: string,
    readonly principal: string,
    private readonly onEnd: (exchange: Exchange) => void,
  ) {}

  /** Runs the request's handler: how it ends is the exchange's last step. */
  run(work: Promise<unknown>): void {
    work.then(
      (result) => this.push({ kind: "done", result }),
      (error: unknown) => this.push({ kind: "failed", error }),
    );
  }

  /** A question for the client: it goes out with the next `input_required` answer; resolves with the client's. */
  ask(request: InputRequest, signal: AbortSignal): Promise<unknown> {
    const key = `q${++this.asked}`;
    return new Promise((resolve, reject) => {
      this.questions.set(key, { request, resolve, reject });
      signal.addEventListener("abort", () => this.questions.delete(key) && reject(signal.reason), { once: true });
      this.gather();
    });
  }

  /** Questions asked together (in one turn of the event loop) go out in one answer. */
  private gather(): void {
    if (this.gathering) return;
    this.gathering = true;
    setImmediate(() => {
      this.gathering = false;
      const taker = this.taker;
      if (this.questions.size === 0 || this.ended || taker === undefined) return;
      this.taker = undefined;
      taker(this.input());
    });
  }

  /** The questions still open, as one `input_required` step. */
  private input(): Step {
    return { kind: "input", requests: Object.fromEntries([...this.questions].map(([key, q]) => [key, q.request])) };
  }

  /** The retry's responses: each question answered by its key; those left unanswered are asked again. */
  answer(responses: unknown): void {
    const given = typeof responses === "object" && responses !== null ? (responses as Record<string, unknown>) : {};
    for (const [key, question] of [...this.questions]) {
      if (!Object.hasOwn(given, key)) continue;
      this.questions.delete(key);
      question.resolve(given[key]);
    }
    if (this.questions.size > 0) this.gather();
  }

  /**
   * The next step, once there is one: how the request ended, else the questions still open, else whichever comes
   * first. Questions asked while nobody waits stay open for the next retry.
   */
  next(): Promise<Step> {
    const ended = this.steps.shift();
    if (ended !== undefined) return Promise.resolve(ended);
    if (this.questions.size > 0) return Promise.resolve(this.input());
    return new Promise((resolve) => (this.taker = resolve));
  }

  private push(step: Ended): void {
    this.finish();
    const taker = this.taker;
    this.taker = undefined;
    if (taker !== undefined) taker(step);
    else this.steps.push(step);
  }

  /** Waiting for a retry, for at most `ms`: then the call is cancelled at its server. */
  park(ms: number): void {
    clearTimeout(this.expiry);
    this.expiry = setTimeout(() => this.cancel("no retry came in time"), ms);
    this.expiry.unref();
  }

  unpark(): void {
    clearTimeout(this.expiry);
  }

  /** Cancels the call (its server is sent a cancellation) and every question still open. */
  cancel(why: string): void {
    if (this.ended) return;
    const reason = new ExchangeError(-32603, `the request was cancelled: ${why}`);
    this.controller.abort(reason);
    for (const q of this.questions.values()) q.reject(reason);
    this.questions.clear();
    this.finish();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.expiry);
    this.onEnd(this);
  }
}

/** The client a 2026-07-28 request is: its declared capabilities, its stream, its exchange. */
export class RequestFront implements Front {
  readonly attached = Date.now();
  readonly initialized = Promise.resolve();
  closed = false;

  constructor(
    readonly exchange: Exchange,
    private readonly declared: Record<string, unknown>,
    private readonly logLevel: string | undefined,
    /** Writes a notification on the request's stream (false when it cannot). */
    private readonly stream: (notification: Message) => boolean,
  ) {}

  capabilities(): Record<string, unknown> {
    return this.declared;
  }

  ask(request: Message, options: AskOptions): Promise<unknown> {
    return this.exchange.ask(request, options.signal);
  }

  /**
   * A capability a server's question needed and this request did not declare: the request ends with `-32021`. Not
   * for `roots`: servers ask for roots of their own accord (at start, on a change), not for the call running, so the
   * server is refused and the request goes on.
   */
  lacks(capability: string): void {
    const name = capability.split(/[ -]/).pop() ?? capability;
    if (name === "roots") return;
    const error = new ExchangeError(
      -32021,
      `Missing required client capability: ${name} (declare it in _meta io.modelcontextprotocol/clientCapabilities)`,
      { requiredCapabilities: { [name]: {} } },
    );
    this.exchange.run(Promise.reject(error));
    this.exchange.cancel(`the client does not declare ${name}`);
  }

  async notify(notification: Message): Promise<void> {
    if (this.closed) return;
    if (notification.method === "notifications/message") {
      const level = (notification.params as { level?: unknown } | undefined)?.level;
      // No level asked: no log messages (MCP 2026-07-28 `schema.ts`, logLevel).
      if (this.logLevel === undefined || typeof level !== "string") return;
      if (LEVELS.indexOf(level) < LEVELS.indexOf(this.logLevel)) return;
    }
    this.stream(notification);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.exchange.cancel("the client went away");
  }
}
