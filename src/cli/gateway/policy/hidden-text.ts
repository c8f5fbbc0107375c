/**
 * Hidden text in what a server sends that a model (or, for elicitation, a person) reads (docs/guide/gateway.md
 * §Hidden text in answers): the text blocks of a tool result and its `structuredContent`, a resource's `text`
 * contents, a prompt's messages, an elicitation's message. The characters are the ones admission finds in tool
 * definitions (the library's one detector: tag characters, bidi controls, zero-width runs, C0/C1 controls; a
 * well-formed emoji or a script's joiner passes). `report` says where and which code points (never the text);
 * `refuse` withholds the answer; `off` looks at nothing. Nothing is stripped or rewritten.
 */

import { isObject } from "../../../engine/json/json.js";
import { appendPointer } from "../../../engine/json/pointer.js";
import type { HiddenText } from "../../../index.js";
import { hiddenTextIn } from "../../../runtime/identity/hidden-text.js";
import type { Audit, Reporter } from "../audit.js";
import type { Sdk } from "../sdk.js";

/** `--hidden-text`: what is done with hidden text in answers. */
export type HiddenTextMode = "off" | "report" | "refuse";

/** The answers looked at, each by the method that carries it. */
export type ScreenedMethod = "tools/call" | "resources/read" | "prompts/get" | "elicitation/create";

/** What a model is told of a tool result the gateway withheld: a fixed sentence, no value or pointer quoted. */
export const WITHHELD_RESULT =
  "The tool's result was withheld by the gateway: it holds invisible or reordering characters (hidden text) " +
  "that a model must not be given. Nothing of it is shown.";

/** What a client or server is told of a prompt, resource or elicitation withheld: also a fixed sentence. */
export const WITHHELD_ANSWER =
  "The gateway withheld this answer: it holds invisible or reordering characters (hidden text).";

/** The parts of an answer a model reads, each with its pointer into the answer. */
function readParts(method: ScreenedMethod, answer: unknown): [string, unknown][] {
  if (!isObject(answer)) return [];
  const parts: [string, unknown][] = [];
  const blocks = (at: string, value: unknown) => {
    const list = Array.isArray(value) ? value : [value];
    list.forEach((block, i) => {
      const where = Array.isArray(value) ? appendPointer(at, i) : at;
      if (!isObject(block)) return;
      if (typeof block["text"] === "string") parts.push([appendPointer(where, "text"), block["text"]]);
      const resource = block["resource"];
      if (isObject(resource) && typeof resource["text"] === "string")
        parts.push([appendPointer(appendPointer(where, "resource"), "text"), resource["text"]]);
    });
  };
  switch (method) {
    case "tools/call":
      if (Array.isArray(answer["content"])) blocks("/content", answer["content"]);
      if (answer["structuredContent"] !== undefined) parts.push(["/structuredContent", answer["structuredContent"]]);
      break;
    case "resources/read":
      if (Array.isArray(answer["contents"])) blocks("/contents", answer["contents"]);
      break;
    case "prompts/get":
      if (typeof answer["description"] === "string") parts.push(["/description", answer["description"]]);
      if (Array.isArray(answer["messages"]))
        answer["messages"].forEach((message, i) => {
          if (isObject(message)) blocks(`/messages/${i}/content`, message["content"]);
        });
      break;
    case "elicitation/create":
      if (typeof answer["message"] === "string") parts.push(["/message", answer["message"]]);
      break;
  }
  return parts;
}

/** Every place in `answer` a model reads that holds hidden text, with its pointer into the answer. */
export function hiddenInAnswer(method: ScreenedMethod, answer: unknown): HiddenText[] {
  const found: HiddenText[] = [];
  for (const [at, value] of readParts(method, answer))
    for (const h of hiddenTextIn(value)) found.push({ pointer: at + h.pointer, codePoints: h.codePoints });
  return found;
}

/** What screening one answer found, and whether it is withheld. */
export interface Screened {
  readonly hidden: readonly HiddenText[];
  readonly withheld: boolean;
}

const CLEAN: Screened = Object.freeze({ hidden: [], withheld: false });

/** The places as one line: `/content/0/text U+200B U+E0041; /structuredContent/note U+202E`. */
function placesLine(hidden: readonly HiddenText[]): string {
  return hidden.map((h) => `${h.pointer} ${h.codePoints.join(" ")}`).join("; ");
}

/** Screens the answers of the servers under one `--hidden-text` mode, and says what it found. */
export class HiddenTextScreen {
  constructor(
    readonly mode: HiddenTextMode,
    private readonly sdk: Sdk,
    private readonly reporter: Reporter,
    private readonly audit: Audit,
  ) {}

  /**
   * A prompt, a resource's contents or an elicitation, screened: the answer as it came, or, when it is withheld, a
   * JSON-RPC error (`InternalError`, a fixed text) thrown instead.
   */
  answer(server: string, method: ScreenedMethod, what: string, answer: unknown): unknown {
    if (!this.screen(server, method, what, answer).withheld) return answer;
    throw new this.sdk.McpError(this.sdk.types.ErrorCode.InternalError, WITHHELD_ANSWER);
  }

  /**
   * Looks at one answer of `server` (`what` names it: a tool, a prompt, a resource URI); on stderr and in the audit
   * log says where hidden text is and which code points, never the text. A tool call's own audit entry carries the
   * places, so only the other answers get an entry of their own here.
   */
  screen(server: string, method: ScreenedMethod, what: string, answer: unknown): Screened {
    if (this.mode === "off") return CLEAN;
    const hidden = hiddenInAnswer(method, answer);
    if (hidden.length === 0) return CLEAN;
    const withheld = this.mode === "refuse";
    const done = withheld ? "withheld" : "passed on (--hidden-text report)";
    this.reporter.say(`${server}: hidden text in ${method} ${what}: ${placesLine(hidden)}; ${done}`);
    if (method !== "tools/call")
      this.audit.answer({
        server,
        method,
        name: what,
        outcome: withheld ? "withheld" : "reported",
        hiddenText: hidden,
      });
    return { hidden, withheld };
  }
}
