/** The format checkers of Validation §7.3, keyed by format name; formats not listed here are unknown. */

import type { BuiltinFormat, FormatCheck } from "../../engine/compile/formats.js";
import { date } from "./date.js";
import { dateTime } from "./date-time.js";
import { duration } from "./duration.js";
import { email } from "./email.js";
import { hostname } from "./hostname.js";
import { idnEmail } from "./idn-email.js";
import { idnHostname } from "./idn-hostname.js";
import { ipv4 } from "./ipv4.js";
import { ipv6 } from "./ipv6.js";
import { iri } from "./iri.js";
import { iriReference } from "./iri-reference.js";
import { jsonPointer } from "./json-pointer.js";
import { regex } from "./regex.js";
import { relativeJsonPointer } from "./relative-json-pointer.js";
import { time } from "./time.js";
import { uri } from "./uri.js";
import { uriReference } from "./uri-reference.js";
import { uriTemplate } from "./uri-template.js";
import { uuid } from "./uuid.js";

/** Steps per code unit of a `format: "regex"` string: the pattern parser does several steps' work per unit. */
const REGEX_STEPS_PER_UNIT = 8;

const checkers: [string, FormatCheck][] = [
  ["date-time", dateTime],
  ["date", date],
  ["time", time],
  ["duration", duration],
  ["email", email],
  ["idn-email", idnEmail],
  ["hostname", hostname],
  ["idn-hostname", idnHostname],
  ["ipv4", ipv4],
  ["ipv6", ipv6],
  ["uri", uri],
  ["uri-reference", uriReference],
  ["iri", iri],
  ["iri-reference", iriReference],
  ["uri-template", uriTemplate],
  ["uuid", uuid],
  ["json-pointer", jsonPointer],
  ["relative-json-pointer", relativeJsonPointer],
  ["regex", regex],
];

export const formatCheckers: ReadonlyMap<string, BuiltinFormat> = new Map(
  checkers.map(([name, check]) => [name, name === "regex" ? { check, stepsPerUnit: REGEX_STEPS_PER_UNIT } : { check }]),
);
