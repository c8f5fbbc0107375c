/**
 * `backplane-schema gateway` (docs/guide/gateway.md): `gateway --config <file> [options]` runs the gateway until its
 * client closes stdin (or, with `--http`, until SIGINT/SIGTERM); `gateway review --config <file> --pins <file>` prints
 * what is held and why, then exits; `gateway approve --pins <file> <tool>…` pins what a person has reviewed.
 */

import type { AdmissionTarget } from "../../index.js";
import { CliError, ExitCode, parseArgs, type ParsedArgs } from "../args.js";
import { draft07Of, limitsOf } from "../boundary-options.js";
import type { Io } from "../validate-command.js";
import { approve } from "./approve.js";
import { Audit, Reporter } from "./audit.js";
import { checkUpstreamTransport, readConfig } from "./config.js";
import { Gateway, type GatewaySettings } from "./gateway.js";
import { serveHttp } from "./transport/http-front.js";
import { httpOf } from "./transport/http-options.js";
import { LineTransport } from "./transport/line-transport.js";
import { isJsonRpcMessage } from "./transport/jsonrpc.js";
import type { CatalogSettings } from "./policy/catalog.js";
import { checkNamespacing } from "./policy/names.js";
import type { HiddenTextMode } from "./policy/hidden-text.js";
import { PinLedger, type PinsMode } from "./policy/pin-ledger.js";
import { review } from "./review.js";
import { replicaOf, requestStateKeyOf } from "./policy/replica-options.js";
import { MAX_PAGES } from "./upstream/listing.js";
import { loadSdk } from "./sdk.js";

const DEFAULTS = Object.freeze({
  callTimeoutMs: 60_000,
  startupTimeoutMs: 30_000,
  maxMessageBytes: 4 * 1024 * 1024,
  pingTimeoutMs: 5_000,
  maxListingItems: 10_000,
  maxListingBytes: 16 * 1024 * 1024,
  maxListChanged: 30,
  maxQueuedBytes: 8 * 1024 * 1024,
  maxRunningRequests: 128,
  maxDroppedNotifications: 1_000,
  clientRequestTimeoutMs: 300_000,
  sessionIdleMs: 30 * 60_000,
  maxStdoutNoise: 1_000,
});

/** The largest delay `setTimeout` honours. */
const MAX_MS = 2 ** 31 - 1;
/** How long stopping may take before the process exits anyway. */
const EXIT_DEADLINE_MS = 5_000;
const HIDDEN_TEXT: readonly HiddenTextMode[] = ["off", "report", "refuse"];
const PINS_MODES: readonly PinsMode[] = ["tofu", "enforce"];

/**
 * Issue 46's server-identity and transport options (one block): `--allow-insecure-upstream <server>` lets one plain
 * `http://` upstream off loopback through (config.ts `checkUpstreamTransport`).
 */
const IDENTITY_OPTIONS = { repeatable: ["--allow-insecure-upstream"] };

/** The servers a configuration file names, each reachable over a transport the gateway accepts. */
async function serversOf(args: ParsedArgs, configFile: string) {
  const servers = await readConfig(configFile);
  checkUpstreamTransport(servers, args.lists.get("--allow-insecure-upstream") ?? [], configFile);
  return servers;
}

/** The options `gateway` and `gateway review` share. */
const SHARED = {
  flags: ["--restart", "--format-assertion", "--no-namespace", "--closed-arguments"],
  options: [
    "--config",
    "--pins",
    "--pins-mode",
    "--hidden-text",
    "--startup-timeout",
    "--max-message-bytes",
    "--max-listing-items",
    "--max-listing-bytes",
    "--max-list-changed",
    "--max-stdout-noise",
    "--draft07",
  ],
  repeatable: ["--target", "--limit", ...IDENTITY_OPTIONS.repeatable],
};

function whole(args: ParsedArgs, name: string, fallback: number, min = 1, max = MAX_MS): number {
  const text = args.options.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < min || value > max)
    throw new CliError(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

function oneOf<T extends string>(args: ParsedArgs, name: string, values: readonly T[], fallback: T): T {
  const given = args.options.get(name) ?? fallback;
  if (!(values as readonly string[]).includes(given))
    throw new CliError(`${name} must be one of ${values.join(", ")} (got "${given}")`);
  return given as T;
}

/** What `gateway` and `gateway review` read from their shared options. */
function settingsOf(args: ParsedArgs): { configFile: string; pinsMode: PinsMode; settings: GatewaySettings } {
  const configFile = args.options.get("--config");
  if (configFile === undefined) throw new CliError("gateway needs --config <file> (the mcpServers object clients use)");
  const pinsMode = oneOf(args, "--pins-mode", PINS_MODES, "tofu");
  if (args.options.has("--pins-mode") && !args.options.has("--pins"))
    throw new CliError("--pins-mode needs --pins <file>");
  const targets = args.lists.get("--target");
  const limits = limitsOf(args);
  const callTimeoutMs = whole(args, "--call-timeout", DEFAULTS.callTimeoutMs);
  // Report by default, in answers as in tool definitions; `off` stops the answers' scan (definitions stay reported).
  const hiddenText = oneOf(args, "--hidden-text", HIDDEN_TEXT, "report");
  const catalog: Omit<CatalogSettings, "servers"> = {
    // The explicit, exact draft-07 upgrade is on by default here: SDK 1.x servers publish draft-07 schemas.
    draft07: draft07Of(args) ?? "upgrade",
    hiddenText: hiddenText === "refuse" ? "refuse" : "report",
    // As the library: `format` is an annotation unless asked for.
    formatAssertion: args.flags.has("--format-assertion"),
    // Off by default: real servers under-declare, and a call they accept would be refused.
    closedArguments: args.flags.has("--closed-arguments"),
    unpinned: pinsMode === "enforce" ? "hold" : "admit",
    namespaced: !args.flags.has("--no-namespace"),
    ...(targets === undefined ? {} : { targets: targets as AdmissionTarget[] }),
    ...(limits === undefined ? {} : { limits }),
  };
  const settings = {
    callTimeoutMs,
    startupTimeoutMs: whole(args, "--startup-timeout", DEFAULTS.startupTimeoutMs),
    maxMessageBytes: whole(args, "--max-message-bytes", DEFAULTS.maxMessageBytes, 1_024, 1024 ** 3),
    maxQueuedBytes: whole(args, "--max-queued-bytes", DEFAULTS.maxQueuedBytes, 1_024, 1024 ** 3),
    maxRunningRequests: whole(args, "--max-running-requests", DEFAULTS.maxRunningRequests, 1, 1_000_000),
    pingTimeoutMs: Math.min(DEFAULTS.pingTimeoutMs, callTimeoutMs),
    restart: args.flags.has("--restart"),
    listing: {
      maxItems: whole(args, "--max-listing-items", DEFAULTS.maxListingItems),
      maxBytes: whole(args, "--max-listing-bytes", DEFAULTS.maxListingBytes, 1_024, 1024 ** 3),
      maxPages: MAX_PAGES,
    },
    maxListChanged: whole(args, "--max-list-changed", DEFAULTS.maxListChanged),
    maxStdoutNoise: whole(args, "--max-stdout-noise", DEFAULTS.maxStdoutNoise, 0),
    maxDroppedNotifications: whole(args, "--max-dropped-notifications", DEFAULTS.maxDroppedNotifications),
    clientRequestTimeoutMs: whole(args, "--client-request-timeout", DEFAULTS.clientRequestTimeoutMs),
    catalog: { ...catalog, servers: [] as string[] },
    hiddenText,
  };
  return { configFile, pinsMode, settings };
}

/** `gateway …`: the subcommand, or the gateway itself. */
export async function gatewayCommand(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] === "approve") return approve(argv.slice(1), io);
  if (argv[0] === "review") {
    const args = parseArgs(argv.slice(1), SHARED);
    const given = settingsOf(args);
    return review(args, { ...given, servers: await serversOf(args, given.configFile) }, io);
  }
  return run(argv, io);
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, {
    flags: [...SHARED.flags, "--audit-values", "--allow-remote"],
    options: [
      ...SHARED.options,
      "--call-timeout",
      "--audit",
      "--http",
      "--token-file",
      "--max-queued-bytes",
      "--max-dropped-notifications",
      "--max-running-requests",
      "--client-request-timeout",
      "--session-idle-timeout",
      "--request-state-key",
      "--replica-id",
    ],
    repeatable: [...SHARED.repeatable, "--allow-origin", "--peer"],
  });
  if (args.positionals.length > 0)
    throw new CliError(`gateway takes no positional arguments (got "${args.positionals[0]}")`);
  const { configFile, pinsMode, settings } = settingsOf(args);
  const http = httpOf(args);
  const servers = await serversOf(args, configFile);
  checkNamespacing(
    servers.map((s) => s.name),
    settings.catalog.namespaced !== false,
    configFile,
  );
  const reporter = new Reporter(io.err);
  const pinsPath = args.options.get("--pins");
  const ledger = new PinLedger(pinsPath, pinsMode, (text) => reporter.say(text), configFile);
  // A pins file that cannot be used (a malformed pin among them) is a usage error now, not a surprise later.
  const note = await ledger.open();
  if (args.flags.has("--audit-values") && !args.options.has("--audit"))
    throw new CliError("--audit-values needs --audit <file|->");
  const requestStateKey = requestStateKeyOf(args);
  const sdk = await loadSdk("gateway");
  const audit = new Audit(args.options.get("--audit"), args.flags.has("--audit-values"), io.err);
  const gateway = new Gateway(
    sdk,
    servers,
    {
      ...settings,
      oneClient: http === undefined,
      ...(requestStateKey === undefined ? {} : { requestStateKey }),
      ...replicaOf(args),
      catalog: { ...settings.catalog, servers: servers.map((s) => s.name) },
    },
    { ledger, reporter, audit },
  );
  if (note !== undefined) reporter.say(note);

  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const signals = () => finish();
  process.once("SIGINT", signals);
  process.once("SIGTERM", signals);
  let closeHttp: (() => Promise<void>) | undefined;
  if (http === undefined) {
    const transport = new LineTransport(process.stdin, process.stdout, {
      maxMessageBytes: settings.maxMessageBytes,
      maxQueuedBytes: settings.maxQueuedBytes,
      isMessage: isJsonRpcMessage,
      onFault: (fault) =>
        reporter.say(
          fault.kind === "oversized"
            ? `the client sent a message of more than ${settings.maxMessageBytes} bytes (--max-message-bytes): dropped`
            : `the client sent a line that is not a JSON-RPC message: dropped`,
        ),
      close: async () => undefined,
    });
    await gateway.attach(transport, finish);
  } else {
    const front = await serveHttp(
      gateway,
      {
        ...http,
        maxMessageBytes: settings.maxMessageBytes,
        sessionIdleMs: whole(args, "--session-idle-timeout", DEFAULTS.sessionIdleMs),
        maxQueuedBytes: settings.maxQueuedBytes,
        forwardTimeoutMs: settings.callTimeoutMs,
      },
      reporter,
    );
    closeHttp = front.close;
    const host = http.host.includes(":") ? `[${http.host}]` : http.host;
    reporter.say(`serving Streamable HTTP at http://${host}:${front.address.port}/mcp`);
  }
  await finished;
  process.off("SIGINT", signals);
  process.off("SIGTERM", signals);
  // Whatever is still open, the process ends soon after: a server cannot keep the gateway alive.
  setTimeout(() => process.exit(ExitCode.ok), EXIT_DEADLINE_MS).unref();
  await closeHttp?.();
  await gateway.stop();
  return ExitCode.ok;
}
