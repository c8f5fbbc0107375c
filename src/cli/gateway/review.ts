/**
 * `gateway review --config <file> --pins <file>`: starts the configured servers, admits their tools against the pins
 * as the gateway would, prints each tool the gateway would hold (changed; new under `--pins-mode enforce`) with the
 * pointers that changed and, where the pin is a canonical text, the pinned and the current value at each (the whole
 * definition for a new tool or against a digest pin), its digest and the `approve <tool>@<digest>` line that pins
 * exactly that definition, records the held definitions in the pin ledger for `approve`, stops the servers and exits
 * (0 nothing held, 1 a server did not start, 4 held).
 */

import { getAt, parsePointer } from "../../engine/json/pointer.js";
import { CliError, ExitCode, oneLine, type ParsedArgs } from "../args.js";
import { printable } from "../terminal-text.js";
import type { Io } from "../validate-command.js";
import type { ServerConfig } from "./config.js";
import { GatewayCatalog } from "./policy/catalog.js";
import { checkNamespacing } from "./policy/names.js";
import { shadowedNames, type Shadowed } from "./policy/shadowing.js";
import { serverPinName, ServerIdentities } from "./policy/server-identity.js";
import { shadowLine } from "./routing/admissions.js";
import { promptNames, type GatewaySettings } from "./gateway.js";
import { digestOf } from "./policy/approval.js";
import { heldPath } from "./policy/pin-files.js";
import { PinLedger, type HeldDefinition, type PinsMode } from "./policy/pin-ledger.js";
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

/** One held definition: what differs from its pin (the whole definition for a new tool), its digest, how to approve. */
async function show(
  say: (text: string) => void,
  pinsPath: string,
  pins: Readonly<Record<string, string>>,
  name: string,
  h: HeldDefinition,
  by: string,
): Promise<void> {
  const now = parsed(h.canonical);
  const server = h.code.startsWith("server_");
  if (h.code === "tool_unpinned" || h.code === "server_unpinned") {
    say(`NEW       ${name}: no pin; held (--pins-mode enforce)${by}`);
    say(`  the whole ${server ? "identity" : "definition"}: ${valueAt(now, "", "(unknown)")}`);
  } else {
    const what = server ? "identity (its tools are held with it)" : "definition";
    say(`HELD      ${name}: its ${what} differs from its pin at ${h.fields.join(", ")}${by}`);
    const before = parsed(Object.hasOwn(pins, name) ? pins[name] : undefined);
    for (const pointer of h.fields) {
      say(`  ${pointer === "" ? "(the whole definition)" : pointer}`);
      say(`    pinned: ${valueAt(before, pointer, "(a digest pin: the pinned text is not known)")}`);
      say(`    now:    ${valueAt(now, pointer, "(unknown)")}`);
    }
  }
  const digest = await digestOf(h.canonical);
  say(`  digest:  ${digest}`);
  say(`  approve: backplane-schema gateway approve --pins ${pinsPath} ${name}@${digest}`);
}

/** The bare prompt names more than one of the servers that are up lists. */
async function shadowedPrompts(up: readonly Upstream[], timeoutMs: number): Promise<Shadowed[]> {
  const offering = up.filter((u) => u.capabilities["prompts"] !== undefined);
  return shadowedNames(
    await Promise.all(offering.map(async (u) => ({ server: u.name, names: await promptNames(u, timeoutMs) }))),
  );
}

export async function review(
  args: ParsedArgs,
  given: { configFile: string; pinsMode: PinsMode; settings: GatewaySettings; servers: readonly ServerConfig[] },
  io: Io,
): Promise<number> {
  if (args.positionals.length > 0)
    throw new CliError(`gateway review takes no positional arguments (got "${args.positionals[0]}")`);
  const pinsPath = args.options.get("--pins");
  if (pinsPath === undefined) throw new CliError("gateway review needs --pins <file>");
  const { servers } = given;
  checkNamespacing(
    servers.map((s) => s.name),
    given.settings.catalog.namespaced !== false,
    given.configFile,
  );
  const ledger = new PinLedger(pinsPath, given.pinsMode, (text) =>
    io.err(`backplane-schema gateway review: ${printable(oneLine(text))}\n`),
  );
  const note = await ledger.open();
  const pins = await ledger.pins();
  const sdk = await loadSdk("gateway review");
  const say = (text: string) => io.out(printable(text) + "\n");
  if (note !== undefined) say(note);
  const failed: string[] = [];
  const identities = new ServerIdentities(servers);
  const upstreams = servers.map(
    (config) =>
      new Upstream(
        config,
        { ...given.settings, restart: false },
        {
          sdk: identities.sdkFor(sdk, config.name),
          events: {
            up: () => undefined,
            down: (up, reason) => failed.push(`${up.name}: ${reason}`),
            toolsChanged: () => undefined,
            notification: () => undefined,
            request: () =>
              Promise.reject(new sdk.McpError(sdk.types.ErrorCode.MethodNotFound, "gateway review answers no request")),
            stderr: () => undefined,
          },
        },
      ),
  );
  try {
    await Promise.all(upstreams.map((up) => up.start()));
    const catalog = new GatewayCatalog(
      {
        ...given.settings.catalog,
        servers: servers.map((s) => s.name),
        unpinned: "hold",
        unpinnedServers: given.settings.catalog.unpinned,
      },
      identities,
    );
    const up = upstreams.filter((u) => u.state === "up");
    const admitted = catalog.admit(
      up.map((u) => ({ name: u.name, revision: u.revision, tools: u.tools })),
      pins,
    );
    if (!admitted.ok) throw new CliError(`the catalog could not be admitted: ${admitted.error}`);
    const a = admitted.value;
    for (const line of failed) say(`NOT STARTED ${line}`);
    for (const x of [...a.excluded, ...a.quarantined]) say(`LEFT OUT  ${x.name}: ${oneLine(x.reason)}`);
    // Names two servers list: namespacing keeps them apart, but a model reads both.
    const prompts = await shadowedPrompts(up, given.settings.callTimeoutMs);
    for (const [kind, shadowed] of [
      ["tool", a.shadowed],
      ["prompt", prompts],
    ] as const) {
      for (const s of shadowed)
        say(`SHADOWED  ${shadowLine(kind, s.name, s.servers, (server) => catalog.names.listed(server, s.name))}`);
    }
    for (const b of a.versionBumps)
      say(
        `VERSION   ${serverPinName(b.server)}: serverInfo.version ${JSON.stringify(b.from)} ` +
          `is now ${JSON.stringify(b.to)} (not held)`,
      );
    const enforce = given.pinsMode === "enforce";
    for (const name of Object.keys(catalog.serverPins().added))
      say(`NEW       ${name}: no pin; pinned on first use by the gateway (tofu)`);
    // What the gateway would hold: changed tools and servers, and new ones under enforce (under tofu it pins them).
    const held = new Map<string, HeldDefinition>();
    for (const [name, h] of catalog.held()) {
      if (h.code === "tool_unpinned" && !enforce)
        say(`NEW       ${name}: no pin; pinned on first use by the gateway (tofu)`);
      else held.set(name, h);
    }
    // Recorded beside what a running gateway holds: approve pins exactly a definition shown here, by its digest.
    const recorded = await ledger.recordReview(held);
    for (const [name, h] of recorded) {
      const by = held.has(name) ? "" : " (held by the running gateway: its server lists it so)";
      await show(say, pinsPath, pins, name, h, by);
    }
    const all = [...catalog.held().values()];
    const count = (...codes: string[]) => all.filter((h) => codes.includes(h.code)).length;
    const leftOut = a.excluded.length + a.quarantined.length;
    say(
      `${a.accepted.length} admitted, ${count("tool_changed")} changed, ${count("tool_unpinned")} new, ` +
        `${leftOut} left out, ${count("server_changed", "server_unpinned")} server(s) held, ` +
        `${failed.length} server(s) not started`,
    );
    if (recorded.size === 0) return failed.length > 0 ? ExitCode.invalid : ExitCode.ok;
    say(`(the definitions shown are recorded in ${heldPath(pinsPath)}: approve pins one by its digest)`);
    return ExitCode.pinsDiffer;
  } finally {
    await Promise.all(upstreams.map((u) => u.stop()));
  }
}
