// A compact reporter for `npm test`: a dot per 50 tests, every failure in full, every skip with its
// reason, diagnostics, and the closing line "N passed, N failed, N skipped". A test file that fails
// outside any test (it threw or exited while loading) is shown with what it wrote to stderr, since
// the runner's own error for it says only "test failed"; files that wrote the same are shown once.
export default async function* reporter(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let dots = 0;
  const failures = [];
  const stderr = new Map();
  const fileFailures = new Map();
  for await (const event of source) {
    const data = event.data ?? {};
    const isSuite = data.details?.type === "suite";
    if (event.type === "test:stderr" && data.file !== undefined) {
      stderr.set(data.file, (stderr.get(data.file) ?? "") + data.message);
    } else if (event.type === "test:pass" && !isSuite) {
      if (data.skip !== undefined) {
        skipped++;
        yield `\nskipped: ${data.name}${typeof data.skip === "string" ? ` (${data.skip})` : ""}\n`;
      } else if (++passed % 50 === 0) {
        yield ++dots % 80 === 0 ? ".\n" : ".";
      }
    } else if (event.type === "test:fail" && !isSuite && data.file !== undefined && data.name === data.file) {
      failed++;
      const text = (stderr.get(data.file) ?? "").trim() || String(data.details?.error?.message);
      fileFailures.set(text, [...(fileFailures.get(text) ?? []), data.file]);
      yield "✖";
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
  for (const [text, files] of fileFailures) {
    const lines = text.split("\n");
    failures.push(`✖ ${files.join(", ")}:\n  ${lines.slice(0, 12).join("\n  ")}`);
  }
  if (failures.length > 0) yield `\n\n${failures.join("\n\n")}\n`;
  yield `\n${passed} passed, ${failed} failed, ${skipped} skipped\n`;
}
