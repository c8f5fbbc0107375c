/**
 * `gateway approve` (docs/guide/gateway.md "Pins and reviewed updates"): a held definition is pinned only when the
 * digest a person reviewed is still its digest, under the pins file's lock, all approvals or none.
 */

import { errorMessage } from "../../../engine/errors.js";
import { CliError, oneLine } from "../../args.js";
import { withLock } from "./file-lock.js";
import { textDigest } from "./listed-identity.js";
import {
  define,
  heldPath,
  pinsText,
  readHeld,
  readPins,
  writeAtomically,
  writeHeld,
  type HeldRecord,
} from "./pin-files.js";

/**
 * The digest of a held definition's canonical text (a tool's listed canonical text, `_meta` included, or a server's
 * identity): what review shows and approve names. For a tool without `_meta` it is `ToolCatalog.digest`'s.
 */
export async function digestOf(canonical: string): Promise<string> {
  JSON.parse(canonical);
  return textDigest(canonical);
}

/** One tool `approve` is asked to pin: its name and the digest of the definition the person reviewed. */
export interface Approval {
  readonly name: string;
  readonly digest: string;
}

/**
 * Pins, for each approval, the held definition whose digest is the one named, and removes it from the held file,
 * under the lock: all or nothing. Throws `CliError` when a tool is not held or its held definition is not the one
 * reviewed (it changed since), and then writes nothing.
 */
export async function approveHeld(
  pinsPath: string,
  approvals: readonly Approval[],
  reviewCommand: string,
): Promise<HeldRecord[]> {
  return withLock(pinsPath, async () => {
    const heldFile = heldPath(pinsPath);
    const held = await readHeld(heldFile);
    const pins = (await readPins(pinsPath)) ?? {};
    const records: HeldRecord[] = [];
    for (const { name, digest } of approvals) {
      if (!Object.hasOwn(held, name)) throw new CliError(`${name} is not held (${reviewCommand} lists what is)`);
      const record = held[name] as HeldRecord;
      let now: string;
      try {
        now = await digestOf(record.canonical);
      } catch (e) {
        throw new CliError(`held file ${heldFile}: the definition of ${name} is unusable: ${oneLine(errorMessage(e))}`);
      }
      if (now !== digest) {
        throw new CliError(
          `the held definition of ${name} is not the one reviewed (${digest}): it changed since; ` +
            `nothing was approved. Review it again (${reviewCommand}) and approve the digest it shows`,
        );
      }
      records.push(record);
    }
    for (const { name } of approvals) {
      define(pins, name, (held[name] as HeldRecord).canonical);
      delete held[name];
    }
    writeAtomically(pinsPath, pinsText(pins));
    writeHeld(heldFile, held);
    return records;
  });
}
