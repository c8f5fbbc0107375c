/**
 * The minified browser bundle runs the whole required official 2020-12 suite in headless Chromium, on a
 * page served with `Content-Security-Policy: script-src 'self'` (no unsafe-eval): every verdict must
 * equal the suite's, no CSP violation may be reported, and the page proves eval really is blocked.
 *
 * Needs /usr/bin/chromium (Debian's `chromium` package). Without it the test is skipped with the reason,
 * unless BROWSER_TEST_REQUIRED=1, when it fails.
 */

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { jsonFiles, locateSuite, remotes, repoRoot } from "../suite/locate.js";

const CHROMIUM = "/usr/bin/chromium";
const CSP = "script-src 'self'";

interface PageReport {
  total: number;
  mismatches: string[];
  compileErrors: string[];
  cspViolationsDuringSuite: string[];
  evalProbe: string;
  functionProbe: string;
  cspViolationsFromProbes: string[];
}

const PAGE_SCRIPT = `
import { compile, SchemaError } from "/backplane.min.js";
const violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  violations.push(e.violatedDirective + " blocked " + e.blockedURI + (e.sample ? " (" + e.sample + ")" : ""));
});
const tick = () => new Promise((r) => setTimeout(r, 50));
async function run() {
  const data = await (await fetch("/suite.json")).json();
  const registry = new Map(data.remotes);
  const report = { total: 0, mismatches: [], compileErrors: [], cspViolationsDuringSuite: [], evalProbe: "", functionProbe: "", cspViolationsFromProbes: [] };
  for (const { file, cases } of data.files) {
    for (const c of cases) {
      const where = file + "::" + c.description;
      let validator;
      try {
        validator = compile(c.schema, { schemaRegistry: registry });
      } catch (e) {
        if (c.schemaError !== undefined && e instanceof SchemaError && e.class === c.schemaError) { report.total += 1; continue; }
        report.compileErrors.push(where + ": " + (e && e.message));
        report.total += c.tests.length;
        continue;
      }
      if (c.schemaError !== undefined) report.mismatches.push(where + ": compiled, expected " + c.schemaError);
      for (const t of c.tests) {
        report.total += 1;
        let fast, full;
        try { fast = validator.isValid(t.data); full = validator.validate(t.data).valid; }
        catch (e) { report.mismatches.push(where + "::" + t.description + ": threw " + (e && e.message)); continue; }
        if (fast !== t.valid || full !== t.valid) report.mismatches.push(where + "::" + t.description + ": isValid " + fast + ", validate " + full + ", expected " + t.valid);
      }
    }
  }
  await tick();
  report.cspViolationsDuringSuite = violations.splice(0);
  try { report.evalProbe = "eval ran: " + (0, eval)("1"); } catch (e) { report.evalProbe = "threw " + e.name; }
  try { report.functionProbe = "Function ran: " + new Function("return 1")(); } catch (e) { report.functionProbe = "threw " + e.name; }
  await tick();
  report.cspViolationsFromProbes = violations.splice(0);
  return report;
}
window.__report = run().catch((e) => ({ fatal: String(e && e.stack || e) }));
`;

const PAGE_HTML = `<!doctype html><meta charset="utf-8"><title>backplane under CSP</title><script type="module" src="/page.js"></script>`;

function serve(files: Map<string, { type: string; body: Buffer | string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const file = files.get(path === "/" ? "/index.html" : path);
    const headers = { "Content-Security-Policy": CSP, "Cache-Control": "no-store" };
    if (file === undefined) {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, "Content-Type": file.type }).end(file.body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function suitePayload(): { json: string; tests: number; files: number } {
  const suite = locateSuite();
  const dir = join(suite, "tests", "draft2020-12");
  const files = jsonFiles(dir, false).map((file) => ({
    file,
    cases: JSON.parse(readFileSync(join(dir, file), "utf8")) as { tests: unknown[] }[],
  }));
  const tests = files.reduce((n, f) => n + f.cases.reduce((m, c) => m + c.tests.length, 0), 0);
  return { json: JSON.stringify({ remotes: [...remotes(suite)], files }), tests, files: files.length };
}

test(
  "browser bundle passes the required official suite under a CSP without unsafe-eval",
  { timeout: 300_000 },
  async (t) => {
    if (!existsSync(CHROMIUM)) {
      const reason = `chromium not installed: ${CHROMIUM} is missing (apt-get install -y chromium)`;
      if (process.env["BROWSER_TEST_REQUIRED"] === "1") assert.fail(`${reason}, and BROWSER_TEST_REQUIRED=1`);
      t.skip(reason);
      return;
    }

    const bundled = await build({
      entryPoints: [join(repoRoot, "src", "index.ts")],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      legalComments: "none",
      write: false,
      logLevel: "silent",
    });
    const code = Buffer.from(bundled.outputFiles[0]!.contents);
    t.diagnostic(
      `bundle: ${code.length} bytes minified, ${gzipSync(bundled.outputFiles[0]!.contents, { level: 9 }).length} bytes gzipped`,
    );
    assert.doesNotMatch(
      code.toString("utf8"),
      /\bnew Function\s*\(|\beval\s*\(/,
      "the bundle contains no generated-code call",
    );

    const page = await build({
      stdin: { contents: PAGE_SCRIPT, loader: "js", sourcefile: "page.js" },
      bundle: true,
      format: "esm",
      platform: "browser",
      external: ["/backplane.min.js"],
      write: false,
      logLevel: "silent",
    });
    const payload = suitePayload();
    const server = await serve(
      new Map([
        ["/index.html", { type: "text/html; charset=utf-8", body: PAGE_HTML }],
        ["/page.js", { type: "text/javascript; charset=utf-8", body: Buffer.from(page.outputFiles[0]!.contents) }],
        ["/backplane.min.js", { type: "text/javascript; charset=utf-8", body: code }],
        ["/suite.json", { type: "application/json", body: payload.json }],
      ]),
    );
    // Playwright gives the browser a fresh temporary profile of its own and removes it on close.
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          "--disable-quic",
        ],
        timeout: 60_000,
      });
      const context = await browser.newContext();
      const tab = await context.newPage();
      const consoleCsp: string[] = [];
      const pageErrors: string[] = [];
      tab.on("console", (m) => {
        if (/Content[- ]Security[- ]Policy/i.test(m.text())) consoleCsp.push(m.text());
      });
      tab.on("pageerror", (e) => pageErrors.push(e.message));
      const { port } = server.address() as AddressInfo;
      const response = await tab.goto(`http://127.0.0.1:${port}/`);
      assert.equal(response?.headers()["content-security-policy"], CSP);
      await tab.waitForFunction(() => (globalThis as { __report?: unknown }).__report !== undefined, undefined, {
        timeout: 60_000,
      });
      const report = await tab.evaluate(
        () => (globalThis as unknown as { __report: Promise<PageReport & { fatal?: string }> }).__report,
      );
      assert.equal(report.fatal, undefined, report.fatal);
      assert.deepEqual(pageErrors, []);

      t.diagnostic(
        `suite: ${payload.files} files, ${payload.tests} tests; page checked ${report.total}, mismatches ${report.mismatches.length}, compile errors ${report.compileErrors.length}`,
      );
      t.diagnostic(`eval probe: ${report.evalProbe}; Function probe: ${report.functionProbe}`);
      assert.ok(
        report.total >= payload.tests && payload.tests > 1000,
        `the whole required suite ran (${report.total} of ${payload.tests})`,
      );
      assert.deepEqual(report.compileErrors, []);
      assert.deepEqual(report.mismatches, []);
      assert.deepEqual(report.cspViolationsDuringSuite, [], "the library triggered no CSP violation");
      assert.equal(report.evalProbe, "threw EvalError", "eval is blocked on this page");
      assert.equal(report.functionProbe, "threw EvalError", "new Function is blocked on this page");
      assert.ok(
        report.cspViolationsFromProbes.length >= 1 &&
          report.cspViolationsFromProbes.every((v) => /script-src/.test(v) && /eval/.test(v)),
        `only the probes' eval violations are reported: ${report.cspViolationsFromProbes.join("; ")}`,
      );
      // Chromium logs the probes' violations to the console too; nothing else may be there.
      assert.ok(
        consoleCsp.every((m) => /eval/i.test(m)),
        consoleCsp.join("\n"),
      );
    } finally {
      await browser?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  },
);
