/** `node:fs` with the one name Node 20 lacks and the conformance suite's CLI imports (conformance-hook.ts). */

import fs from "node:fs";

export * from "node:fs";
export default fs;

/** Never called by `conformance server`; present so that the suite's bundle links on Node 20. */
export function globSync(): never {
  throw new Error("fs.globSync is not available on this Node.js");
}
