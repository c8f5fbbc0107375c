// A compact reporter for `npm test`: a dot per 50 tests, every failure in full, every skip with its
// reason, diagnostics, and the closing line "N passed, N failed, N skipped".
export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let dots = 0;
  const failures = [];
  for await (const event of source) {
    const data = event.data ?? {};
    const isSuite = data.details?.type === "suite";
    if (event.type === "test:pass" && !isSuite) {
      if (data.skip !== undefined) {
        skipped++;
        yield `\nskipped: ${data.name}${typeof data.skip === "string" ? ` (${data.skip})` : ""}\n`;
      } else if (++passed % 50 === 0) {
        yield ++dots % 80 === 0 ? ".\n" : ".";
      }
    } else if (event.type === "test:fail" && !isSuite) {
      failed++;
      const error = data.details?.error;
      const cause = error?.cause ?? error;
      failures.push(
        `✖ ${data.file ? `${data.file}: ` : ""}${data.name}\n  ${String(cause?.stack ?? cause?.message ?? cause)
          .split("\n")
          .slice(0, 12)
          .join("\n  ")}`,
      );
      yield "✖";
    } else if (event.type === "test:diagnostic" && data.nesting > 0) {
      yield `\nℹ ${data.message}\n`;
    }
  }
  if (failures.length > 0) yield `\n\n${failures.join("\n\n")}\n`;
  yield `\n${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}
