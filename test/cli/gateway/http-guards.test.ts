/**
 * `originAllowed` (src/cli/gateway/transport/http-front.ts): an `Origin` reaches the gateway when `--allow-origin`
 * names it, or when it is the loopback front's own origin; a rebound name, another port, another scheme, a path or
 * anything unparsable is refused, and off loopback only the list counts.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { originAllowed } from "../../../src/cli/gateway/transport/http-front.js";

const self = { loopback: true, port: 8123 };

test("the loopback front's own origin is allowed, under each loopback name", () => {
  for (const origin of ["http://localhost:8123", "http://127.0.0.1:8123", "http://[::1]:8123"]) {
    assert.equal(originAllowed(origin, [], self), true, origin);
  }
});

test("anything else is refused unless --allow-origin names it", () => {
  const refused = [
    "http://evil.example:8123",
    "http://localhost:8124",
    "http://localhost",
    "https://localhost:8123",
    "http://localhost:8123/path",
    "http://localhost.evil.example:8123",
    "null",
    "",
  ];
  for (const origin of refused) assert.equal(originAllowed(origin, [], self), false, origin);
  assert.equal(originAllowed("http://evil.example:8123", ["http://evil.example:8123"], self), true);
});

test("off loopback only --allow-origin counts", () => {
  const remote = { loopback: false, port: 8123 };
  assert.equal(originAllowed("http://localhost:8123", [], remote), false);
  assert.equal(originAllowed("http://localhost:8123", ["http://localhost:8123"], remote), true);
});
