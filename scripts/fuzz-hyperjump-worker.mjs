// Runs @hyperjump/json-schema for scripts/fuzz.mjs in a worker thread, so a peer that never returns
// (a synchronous loop) can be stopped by terminating the worker. Values travel as JSON text, so keys
// such as "__proto__" stay own properties.
import { parentPort } from "node:worker_threads";
import { hyperjumpVerdicts } from "../build/test/differential/hyperjump.js";

parentPort.on("message", async ({ id, schema, instances }) => {
  const result = await hyperjumpVerdicts(JSON.parse(schema), JSON.parse(instances));
  parentPort.postMessage({ id, result });
});
