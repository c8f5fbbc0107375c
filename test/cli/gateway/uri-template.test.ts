/**
 * URI template matching without backtracking (issue 44, observations 5 and 11): the work a match takes, counted,
 * grows linearly with the URI for the template that froze the gateway; operators limit what an expansion holds;
 * specificity orders owners; overlaps between templates are found.
 */

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  matchTemplate,
  overlap,
  parseTemplate,
  specificity,
  type UriTemplate,
} from "../../../src/cli/gateway/uri-template.js";

function parsed(template: string): UriTemplate {
  const t = parseTemplate(template);
  assert.ok(t !== undefined, template);
  return t;
}

function work(t: UriTemplate, uri: string): { matched: boolean; work: number } {
  const counter = { work: 0 };
  return { matched: matchTemplate(t, uri, counter), work: counter.work };
}

describe("URI templates", () => {
  test("{p0}/{p1}/…/{p15}! against 36, 72, 144 and 288 segments: counted work grows linearly", () => {
    const t = parsed([...Array(16).keys()].map((i) => `{p${i}}`).join("/") + "!");
    const path = (n: number) => [...Array(n).keys()].map((i) => `seg${i}`).join("/");
    const counts = [36, 72, 144, 288].map((n) => work(t, path(n)));
    for (const c of counts) assert.equal(c.matched, false);
    const bound = (t.steps.length * 2 + 1) * path(36).length;
    assert.ok((counts[0] as { work: number }).work <= bound, `${(counts[0] as { work: number }).work} > ${bound}`);
    for (let i = 1; i < counts.length; i++) {
      const ratio = (counts[i] as { work: number }).work / (counts[i - 1] as { work: number }).work;
      assert.ok(ratio <= 2.2, `doubling the path multiplied the work by ${ratio}`);
    }
    assert.equal(work(t, path(15) + "!").matched, false, "16 expressions need 15 slashes at least");
    assert.equal(work(t, path(16) + "!").matched, true);
  });

  test("what each operator's expansion may hold", () => {
    const cases: [string, string, boolean][] = [
      ["file:///{path}", "file:///notes.txt", true],
      ["file:///{path}", "file:///home/ada/notes.txt", false],
      ["file:///{+path}", "file:///home/ada/notes.txt", true],
      ["file://{/path*}", "file:///home/ada", true],
      ["file://{/path*}", "file://", true],
      ["file://{/path*}", "file:///a?b", false],
      ["search{?q,lang}", "search?q=x&lang=en", true],
      ["search{?q,lang}", "searchq=x", false],
      ["doc{#frag}", "doc#a/b", true],
      ["doc{.ext}", "doc.md", true],
      ["doc{.ext}", "doc.m/d", false],
      ["a{;x}", "a;x=1", true],
      ["{+uri}", "anything://at/all?x#y", true],
      ["greeting://{name}", "greeting://ada", true],
      ["greeting://{name}", "greeting:/ada", false],
    ];
    for (const [template, uri, expected] of cases)
      assert.equal(work(parsed(template), uri).matched, expected, `${template} ${uri}`);
  });

  test("what is not a template is refused", () => {
    for (const bad of ["a{b", "a}b", "a{}b", "a{b{c}}", "a{=b}", "a{!b}"])
      assert.equal(parseTemplate(bad), undefined, bad);
  });

  test("specificity: more literal characters first, then fewer unrestricted expressions", () => {
    assert.ok(specificity(parsed("file:///{+path}"), parsed("{+uri}")) > 0);
    assert.ok(specificity(parsed("{+uri}"), parsed("file:///{+path}")) < 0);
    assert.ok(specificity(parsed("a://{x}"), parsed("a://{+x}")) > 0);
    assert.equal(specificity(parsed("a://{+x}"), parsed("b://{+y}")), 0);
  });

  test("overlap: two templates one URI can match, counted", () => {
    const counter = { work: 0 };
    assert.equal(overlap(parsed("{+uri}"), parsed("file:///{+path}"), counter), true);
    assert.equal(overlap(parsed("file:///{path}"), parsed("file:///{+p}/x"), counter), false);
    assert.equal(overlap(parsed("a://{x}"), parsed("b://{x}"), counter), false);
    assert.equal(overlap(parsed("a://{x}/y"), parsed("a://b/{z}"), counter), true);
    assert.ok(counter.work > 0);
    const wide = parsed([...Array(16).keys()].map((i) => `{p${i}}`).join("/") + "!");
    const steps = { work: 0 };
    overlap(wide, wide, steps);
    const states = wide.steps.length * 2 + 1;
    assert.ok(steps.work <= states * states, `${steps.work} pairs visited`);
  });
});
