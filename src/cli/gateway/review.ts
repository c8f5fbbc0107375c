/**
 * `gateway review --config <file> --pins <file>`: starts the configured servers, admits their tools against the pins
 * as the gateway would (a tool without a pin counts as held: it is what `approve` pins), prints each held tool with
 * the pointers that changed and, where the pin is a canonical text, the pinned and the current value at each, records
 * the held definitions for `approve`, stops the servers and exits (0 nothing held, 1 a server did not start, 4 held).
 */

import { getAt, parsePointer } from "../../engine/json/pointer.js";
import { CliError, ExitCode, oneLine, type ParsedArgs } from "../args.js";
import { printable } from "../terminal-text.js";
import type { Io } from "../validate-command.js";
import { GatewayCatalog } from "./catalog.js";
import { readConfig } from "./config.js";
import type { GatewaySettings } from "./gateway.js";
import { PinsStore, heldPath, type PinsMode } from "./pins-store.js";
import { loadSdk } from "./sdk.js";
import { Upstream } from "./upstream/upstream.js";

function parsed(text: string | undefined): unknown {
  if (text === undefined || text.startsWith("sha256-")) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The value at a pointer of a canonical definition, as JSON, or what stands for it. */
function valueAt(definition: unknown, pointer: string, absent: string): string {
  if (definition === undefined) return absent;
  const tokens = parsePointer(pointer);
  const found = tokens === undefined ? undefined : getAt(definition, tokens);
  return found === undefined ? "(absent)" : JSON.stringify(found.value);
}

export async function review(
  args: ParsedArgs,
  given: { configFile: string; pinsMode: PinsMode; settings: GatewaySettings },
  io: Io,
): Promise<number> {
  if (args.positionals.length > 0)
    throw new CliError(`gateway review takes no positional arguments (got "${args.positionals[0]}")`);
  const pinsPath = args.options.get("--pins");
  if (pinsPath === undefined) throw new CliError("gateway review needs --pins <file>");
  const servers = await readConfig(given.configFile);
  const store = new PinsStore(pinsPath, "enforce", (text) =>
    io.err(`backplane-schema gateway review: ${printable(oneLine(text))}\n`),
  );
  const pins = await store.read();
  const sdk = await loadSdk("gateway review");
  const say = (text: string) => io.out(printable(text) + "\n");
  const failed: string[] = [];
  const upstreams = servers.map(
    (config) =>
      new Upstream(
        config,
        sdk,
        { ...given.settings, restart: false },
        {
          up: () => undefined,
          down: (up, reason) => failed.push(`${up.name}: ${reason}`),
          toolsChanged: () => undefined,
          notification: () => undefined,
          request: () =>
            Promise.reject(new sdk.McpError(sdk.types.ErrorCode.MethodNotFound, "gateway review answers no request")),
          stderr: () => undefined,
        },
      ),
  );
  try {
    await Promise.all(upstreams.map((up) => up.start()));
    const catalog = new GatewayCatalog({
      ...given.settings.catalog,
      servers: servers.map((s) => s.name),
      unpinned: "hold",
    });
    const up = upstreams.filter((u) => u.state === "up");
    const admitted = catalog.admit(
      up.map((u) => ({ name: u.name, revision: u.revision, tools: u.tools })),
      pins,
    );
    if (!admitted.ok) throw new CliError(`the catalog could not be admitted: ${admitted.error}`);
    const a = admitted.value;
    for (const line of failed) say(`NOT STARTED ${line}`);
    for (const x of [...a.excluded, ...a.quarantined]) say(`LEFT OUT  ${x.name}: ${oneLine(x.reason)}`);
    const held = catalog.held();
    for (const [name, h] of held) {
      if (h.code === "tool_unpinned") {
        const note =
          given.pinsMode === "tofu" ? "pinned on first use by the gateway (tofu)" : "held (--pins-mode enforce)";
        say(`NEW       ${name}: no pin; ${note}`);
        continue;
      }
      say(`HELD      ${name}: its definition differs from its pin at ${h.fields.join(", ")}`);
      const before = parsed(pins[name]);
      const now = parsed(h.canonical);
      for (const pointer of h.fields) {
        say(`  ${pointer === "" ? "(the whole definition)" : pointer}`);
        say(`    pinned: ${valueAt(before, pointer, "(a digest pin: the pinned text is not known)")}`);
        say(`    now:    ${valueAt(now, pointer, "(unknown)")}`);
      }
    }
    const count = (code: string) => [...held.values()].filter((h) => h.code === code).length;
    const leftOut = a.excluded.length + a.quarantined.length;
    say(
      `${a.accepted.length} admitted, ${count("tool_changed")} changed, ${count("tool_unpinned")} new, ` +
        `${leftOut} left out, ${failed.length} server(s) not started`,
    );
    await store.recordHeld(held);
    if (held.size > 0) {
      say(`approve with: backplane-schema gateway approve --pins ${pinsPath} <tool>…`);
      say(`(the definitions shown are recorded in ${heldPath(pinsPath)})`);
    }
    // What the gateway would hold: changed tools, and new ones under enforce (under tofu it pins them).
    const holds = count("tool_changed") > 0 || (given.pinsMode === "enforce" && count("tool_unpinned") > 0);
    if (holds) return ExitCode.pinsDiffer;
    return failed.length > 0 ? ExitCode.invalid : ExitCode.ok;
  } finally {
    await Promise.all(upstreams.map((u) => u.stop()));
  }
}
