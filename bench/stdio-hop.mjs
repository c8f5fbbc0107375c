// One more stdio hop and nothing else, the floor under what `backplane-schema gateway` adds to a call (gateway.mjs):
// `node bench/stdio-hop.mjs <server.mjs>` starts the server as its child and relays newline-delimited JSON-RPC both
// ways, each line parsed and written again, with the one renaming the gateway does in front of one server named s0
// (`s0__` added to listed tool names, taken off a called one). No SDK, no checks, no bounds: a measuring device only.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const PREFIX = "s0__";
const child = spawn(process.execPath, [process.argv[2]], { stdio: ["pipe", "pipe", "inherit"] });

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === "tools/call" && message.params.name.startsWith(PREFIX))
    message.params.name = message.params.name.slice(PREFIX.length);
  child.stdin.write(JSON.stringify(message) + "\n");
});
createInterface({ input: child.stdout }).on("line", (line) => {
  const message = JSON.parse(line);
  for (const tool of message.result?.tools ?? []) tool.name = PREFIX + tool.name;
  process.stdout.write(JSON.stringify(message) + "\n");
});
process.stdin.on("end", () => child.stdin.end());
child.on("exit", () => process.exit(0));
