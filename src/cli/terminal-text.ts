/**
 * Text for a terminal (issue: server-chosen names and messages reach the CLI's output). Every character that a
 * terminal acts on or does not show — C0 controls but the line feed, DEL, C1 controls (ESC and CSI sequences start
 * with them), line and paragraph separators, bidi controls and every other invisible format or default-ignorable
 * character — is written as a JSON `\uXXXX` escape: visible on a terminal, and the same character again inside a
 * JSON string, so JSON output stays JSON. Line feeds are the CLI's own line structure; text from a server is made one
 * line (`oneLine`) before it is placed in a row.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is this expression's job
const UNPRINTABLE = /[\0-\t\v-\x1f\x7f-\x9f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\p{Cs}]/gu;

/** `text` with every character a terminal would act on or hide written as `\uXXXX` (a UTF-16 unit each). */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    let escaped = "";
    for (let i = 0; i < c.length; i++) escaped += "\\u" + c.charCodeAt(i).toString(16).padStart(4, "0");
    return escaped;
  });
}

/** A word that is one plain token on a terminal: no space, quote or backslash, nothing `printable` would escape. */
const PLAIN_WORD = /^[^\s"'\\]+$/u;

/**
 * A name, revision or pointer that a server or a file chose, as one unambiguous word in a row: as it is when it is
 * a plain token, else as a JSON string, so that its spaces, quotes and line feeds are visible and it cannot pass for
 * another column or another row (`printable` then escapes what a terminal would act on). "" is `""`.
 */
export function word(text: string): string {
  return PLAIN_WORD.test(text) && printable(text) === text ? text : JSON.stringify(text);
}
