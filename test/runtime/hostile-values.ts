/** Values a host may throw that cannot be turned into text the usual way, and objects that throw them when read. */

/** A handler whose every trap throws `value`: the proxy cannot be read, compared or converted at all. */
function throwingHandler(value: () => unknown): ProxyHandler<object> {
  return new Proxy(
    {},
    {
      get: () => () => {
        throw value();
      },
    },
  );
}

/** A fresh Proxy whose every trap throws an `Error`: `String()`, `instanceof`, property reads all throw. */
export function untouchable(): object {
  return new Proxy(
    {},
    throwingHandler(() => new Error("trap")),
  );
}

/** An `Error` whose `message` getter throws (and so does `String()` of it, which reads the message). */
function errorWithThrowingMessage(): Error {
  const e = new Error("unused");
  Object.defineProperty(e, "message", {
    get() {
      throw Object.create(null);
    },
  });
  return e;
}

/**
 * Thrown values whose `String()` throws or that are no `Error` (docs/project/security.md: nothing escapes as a crash),
 * each made fresh by its factory.
 */
export const THROWN: readonly (readonly [string, () => unknown])[] = [
  ["Object.create(null)", () => Object.create(null)],
  ["a Proxy whose every trap throws", untouchable],
  [
    "an object whose toString getter throws",
    () => ({
      get toString(): never {
        throw Object.create(null);
      },
    }),
  ],
  ["an Error whose message getter throws", errorWithThrowingMessage],
  ["a Symbol", () => Symbol("thrown")],
  ["undefined", () => undefined],
];

/** A Proxy whose every trap throws `value`. */
export function throwingProxy(value: unknown): object {
  return new Proxy(
    {},
    throwingHandler(() => value),
  );
}

/** `base` with `field` replaced by a getter that throws `value`. */
export function throwingField(base: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const out = { ...base };
  Object.defineProperty(out, field, {
    enumerable: true,
    get() {
      throw value;
    },
  });
  return out;
}
