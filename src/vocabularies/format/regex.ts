/** ECMA-262 §22.2.1 Pattern with the "u" flag (Validation §7.2.3), decided by the runtime's own RegExp parser. */

export function regex(value: string): boolean {
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}
