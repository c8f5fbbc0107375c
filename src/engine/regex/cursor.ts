/** A read cursor over the code points of a pattern source (u-mode: the pattern is a code point sequence). */
import { RegexSyntaxError } from "./ast.js";

export class Cursor {
  readonly cps: readonly number[];
  pos = 0;

  constructor(readonly source: string) {
    const cps: number[] = [];
    for (const ch of source) cps.push(ch.codePointAt(0)!);
    this.cps = cps;
  }

  /** The code point `off` ahead, or -1 past the end. */
  peek(off = 0): number {
    const i = this.pos + off;
    return i < this.cps.length ? this.cps[i]! : -1;
  }

  atEnd(): boolean {
    return this.pos >= this.cps.length;
  }

  next(): number {
    if (this.pos >= this.cps.length) this.fail("unexpected end of pattern");
    return this.cps[this.pos++]!;
  }

  eat(ch: string): boolean {
    if (this.peek() === ch.charCodeAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  expect(ch: string, what: string): void {
    if (!this.eat(ch)) this.fail(what);
  }

  lookingAt(s: string): boolean {
    for (let i = 0; i < s.length; i++) if (this.peek(i) !== s.charCodeAt(i)) return false;
    return true;
  }

  fail(message: string): never {
    throw new RegexSyntaxError(message, this.source, this.pos);
  }
}

export function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

export function hexValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp >= 0x41 && cp <= 0x46) return cp - 0x37;
  if (cp >= 0x61 && cp <= 0x66) return cp - 0x57;
  return -1;
}
