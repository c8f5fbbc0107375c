/**
 * The catalog admitted again whenever what it is made of changes (a server started, stopped or changed its tools, the
 * pins file changed): one admission at a time, in the order asked for; what changed reported on stderr and in the
 * audit log, tools in force pinned on first use, and the clients told when the tools they are shown change.
 */

import { errorMessage } from "../../../engine/errors.js";
import type { Audit, Reporter } from "../audit.js";
import type { Admission, ClosedTool, GatewayCatalog } from "../policy/catalog.js";
import type { PinLedger } from "../policy/pin-ledger.js";
import { serverPinName } from "../policy/server-identity.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Fronts } from "./fronts.js";

/** What `--closed-arguments` did to one tool: the objects closed, then each left open and why. */
function closedLine(c: ClosedTool): string {
  const where = (pointer: string) => (pointer === "" ? "the root" : pointer);
  const closed = c.closed.length === 0 ? "nothing closed" : `closed ${c.closed.map(where).join(", ")}`;
  const open = c.open.map((o) => `${where(o.pointer)} ${o.reason}`);
  return [closed, ...open].join("; ");
}

/**
 * One line saying that servers list one bare name: namespacing keeps them apart, but a model reads the names.
 */
export function shadowLine(
  kind: "tool" | "prompt",
  name: string,
  servers: readonly string[],
  listed: (server: string) => string,
): string {
  const as = servers.map((server) => `${server} (as ${listed(server)})`).join(", ");
  return `${kind} name ${JSON.stringify(name)}: listed by ${servers.length} servers, ${as}; a model reads both`;
}

/**
 * What an admission says of servers and names (issue 46), each with the key it is said once under: servers held for
 * their identity (and the audit entry), versions that alone moved, bare tool names more than one server lists.
 */
function identityReports(a: Admission, catalog: GatewayCatalog, advice: string) {
  const out: { key: string; line: string; held?: Admission["heldServers"][number] }[] = [];
  for (const h of a.heldServers) {
    const where = h.code === "server_changed" ? ` at ${h.fields.join(", ")}` : " (no pin)";
    const tools = [...catalog.listed()].filter(([, server]) => server === h.server).length;
    const line = `held ${serverPinName(h.server)}: ${h.code}${where}; its ${tools} tools are held with it; ${advice}`;
    out.push({ key: `held server ${h.server} ${h.code} ${h.fields.join(" ")}`, line, held: h });
  }
  for (const b of a.versionBumps) {
    const moved = `serverInfo.version ${JSON.stringify(b.from)} is now ${JSON.stringify(b.to)}`;
    out.push({
      key: `version ${b.server} ${b.to}`,
      line: `${b.server}: ${moved} (reported, not held: its tools are pinned)`,
    });
  }
  for (const s of a.shadowed) {
    const line = shadowLine("tool", s.name, s.servers, (server) => catalog.names.listed(server, s.name));
    out.push({ key: `shadowed ${s.name} ${s.servers.join(" ")}`, line: `shadowed ${line}` });
  }
  return out;
}

export class Admissions {
  /** The tools held after the last admission, and the names shown to clients (to tell them when those change). */
  private held = new Set<string>();
  /** What the last admission reported of tools left out and of hidden text. */
  private reported = new Set<string>();
  private shown = "";
  private admitting: Promise<void> = Promise.resolve();
  /** Every tool ever listed, with its server: a call to one whose server is down is told so. */
  private readonly known = new Map<string, string>();

  constructor(
    private readonly catalog: GatewayCatalog,
    /** The pins admitted against and the held tools: a pins file's, or memory's for the run. */
    private readonly ledger: PinLedger,
    private readonly upstreams: () => readonly Upstream[],
    private readonly parts: { readonly fronts: Fronts; readonly reporter: Reporter; readonly audit: Audit },
  ) {}

  /** The server that last listed the tool `name`, if one ever did. */
  knownServer(name: string): string | undefined {
    return this.known.get(name);
  }

  /**
   * Admits the listings of the servers that are up, reports what changed, and tells the clients. Admissions run one
   * at a time, in the order they were asked for.
   */
  readmit(why: string): Promise<void> {
    this.admitting = this.admitting
      .then(() => this.admitNow(why))
      .catch((e: unknown) => this.parts.reporter.say(`${why}: the admission failed: ${errorMessage(e)}`));
    return this.admitting;
  }

  private async admitNow(why: string): Promise<void> {
    const { reporter } = this.parts;
    let pins: Record<string, string>;
    try {
      pins = await this.ledger.pins();
    } catch (e) {
      reporter.say(`${why}: the pins file cannot be read, the catalog in force stays: ${errorMessage(e)}`);
      return;
    }
    const listed = this.upstreams()
      .filter((up) => up.state === "up")
      .map((up) => ({ name: up.name, revision: up.revision, tools: up.tools }));
    const admitted = this.catalog.admit(listed, pins);
    if (!admitted.ok) {
      reporter.say(`${why}: the catalog could not be admitted, the one in force stays: ${admitted.error}`);
      return;
    }
    const a = admitted.value;
    // A tool (or server) held before and admitted now was approved (through `gateway approve` or the pins file).
    const heldServers = new Set(a.heldServers.map((h) => serverPinName(h.server)));
    const up = new Set(listed.map((server) => serverPinName(server.name)));
    const approved = [
      ...[...this.held].filter((name) => up.has(name) && !heldServers.has(name)),
      ...a.accepted.filter((name) => this.held.has(name)),
    ];
    this.held = new Set([...a.held.map((h) => h.name), ...heldServers]);
    this.report(a, approved);
    for (const [name, server] of this.catalog.listed()) this.known.set(name, server);
    const servers = this.catalog.serverPins();
    const pinned = { ...this.catalog.pins, ...servers.added };
    const added = await this.ledger.record(pinned, this.catalog.held(), servers.refreshed);
    if (added.length > 0) reporter.say(`${this.ledger.path}: pinned on first use: ${added.join(", ")}`);
    const shown = a.accepted.join("\n");
    if (shown !== this.shown && !a.first) this.parts.fronts.toolListChanged();
    this.shown = shown;
  }

  private report(a: Admission, approved: readonly string[]): void {
    const { reporter, audit } = this.parts;
    const serverOf = (name: string) => this.catalog.serverOf(name) ?? this.known.get(name);
    // Tools left out, and hidden text, are reported when they first appear, not at every admission.
    const reported = this.reported;
    this.reported = new Set();
    const fresh = (key: string) => {
      this.reported.add(key);
      return !reported.has(key);
    };
    if (a.first) {
      const up = this.upstreams().filter((u) => u.state === "up").length;
      reporter.say(`admitted ${a.accepted.length} tools from ${up} of ${this.upstreams().length} servers`);
    }
    for (const q of a.quarantined) {
      if (!fresh(`quarantined ${q.name} ${q.code}`)) continue;
      reporter.say(`quarantined ${q.name}: ${q.reason}`);
      audit.catalog({ server: q.server, tool: q.name, outcome: "quarantined", code: q.code });
    }
    for (const x of a.excluded) {
      if (!fresh(`excluded ${x.name} ${x.code}`)) continue;
      reporter.say(`excluded ${x.name}: ${x.reason}`);
      audit.catalog({ server: x.server, tool: x.name, outcome: "excluded", code: x.code });
    }
    const changed = new Map(a.changed.map((c) => [c.name, c.fields]));
    for (const h of a.held) {
      if (!a.first && !changed.has(h.name) && !a.added.includes(h.name)) continue;
      const where = h.code === "tool_changed" ? ` at ${h.fields.join(", ")}` : " (no pin)";
      reporter.say(`held ${h.name}: ${h.code}${where}; ${this.ledger.advice()}`);
      audit.catalog({ server: serverOf(h.name), tool: h.name, outcome: "held", code: h.code, fields: h.fields });
    }
    for (const r of identityReports(a, this.catalog, this.ledger.advice())) {
      if (!fresh(r.key)) continue;
      reporter.say(r.line);
      if (r.held !== undefined) audit.catalog({ ...r.held, outcome: "held" });
    }
    for (const name of new Set([...a.approved, ...approved])) {
      reporter.say(`approved ${name}`);
      audit.catalog({ server: serverOf(name), tool: name, outcome: "approved" });
    }
    const held = new Set(a.held.map((h) => h.name));
    for (const name of a.added) {
      if (held.has(name)) continue;
      if (!a.first) reporter.say(`added ${name}`);
      audit.catalog({ server: serverOf(name), tool: name, outcome: "admitted" });
    }
    for (const name of a.removed) {
      reporter.say(`removed ${name}`);
      audit.catalog({ server: serverOf(name), tool: name, outcome: "removed" });
    }
    for (const c of a.closedArguments) {
      const line = closedLine(c);
      if (fresh(`closed ${c.name} ${line}`)) reporter.say(`${c.name}: closed arguments: ${line}`);
    }
    for (const h of a.hiddenText) {
      const at = h.pointers.join(", ");
      if (fresh(`hidden ${h.name} ${at}`)) reporter.say(`${h.name}: hidden characters at ${at} (--hidden-text report)`);
    }
  }
}
