/**
 * Run with `--import` before the MCP conformance suite's CLI on Node 20 (conformance.ts): its bundle imports `globSync`
 * from `fs`, which Node 20 does not export, for a results summary the `server` command never calls. The resolve hook
 * (conformance-resolve.ts) answers imports of `fs` made from the conformance package, and only those, with
 * conformance-fs.ts.
 */

import { register } from "node:module";

register("./conformance-resolve.js", import.meta.url);
