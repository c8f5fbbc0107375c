// The rule this library applies to every instance (docs/guide/engine.md "Values that are not JSON data"), written
// plainly for the benchmark's "ajv+json" library: ajv's generated function, then this check, so one run shows what
// the rule costs generated code too. Not the library's code: a recursive walk, as short as the rule allows.
//
// JSON data: a string, a finite number, a boolean, null, an array without holes, an object whose prototype is
// Object.prototype or null, with members that are JSON data, and no object that contains itself. Symbol-keyed
// properties are not members. A hole reads as undefined, so it fails as undefined does (an index property set on
// Array.prototype would hide it; the benchmark's instances have none).

const hasOwn = Object.prototype.hasOwnProperty;
const OBJECT = Object.prototype;

/** Nesting past which the walk stops to look for a cycle among the objects above (the quick walk holds no list). */
const CYCLE_CHECK_DEPTH = 256;

/** Whether `value` is JSON data. */
export function isJsonData(value) {
  return walk(value, 0, undefined);
}

function walk(value, depth, above) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return value - value === 0;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth === CYCLE_CHECK_DEPTH && above === undefined) return walk(value, depth, []);
  if (above !== undefined) {
    if (above.includes(value)) return false;
    above.push(value);
  }
  const ok = Array.isArray(value) ? items(value, depth, above) : members(value, depth, above);
  if (above !== undefined) above.pop();
  return ok;
}

function items(array, depth, above) {
  for (let i = 0; i < array.length; i++) if (!walk(array[i], depth + 1, above)) return false;
  return true;
}

function members(object, depth, above) {
  const proto = Object.getPrototypeOf(object);
  if (proto !== OBJECT && proto !== null) return false;
  for (const key in object) {
    if (hasOwn.call(object, key) && !walk(object[key], depth + 1, above)) return false;
  }
  return true;
}
