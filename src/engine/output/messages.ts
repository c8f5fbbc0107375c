/** Shared wording for messages: plain English, naming the constraint and the offending value. */

import { preview, typeOf } from "../json/json.js";

export function got(value: unknown): string {
  return `got ${preview(value)}`;
}

export function typeName(value: unknown): string {
  const t = typeOf(value);
  return t === "integer" ? "number" : t;
}

export function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function quoteList(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => JSON.stringify(n));
  return shown.join(", ") + (names.length > max ? `, … (${names.length - max} more)` : "");
}

/** JSON values as short previews: `"a", "b", 3`, at most `max` of them, then how many more. */
export function valueList(values: readonly unknown[], max = 10): string {
  const shown = values.slice(0, max).map((v) => preview(v, 30));
  return shown.join(", ") + (values.length > max ? `, … (${values.length - max} more)` : "");
}

/** "0", "0 and 2", "0, 1 and 2", "0, 1, 2, 3, 4 and 3 more". */
export function indexList(indices: readonly number[], max = 5): string {
  if (indices.length > max) return `${indices.slice(0, max).join(", ")} and ${indices.length - max} more`;
  if (indices.length <= 1) return indices.join("");
  return `${indices.slice(0, -1).join(", ")} and ${indices[indices.length - 1]}`;
}
