/** The resolve hook conformance-hook.ts registers: `fs` for the conformance package is conformance-fs.ts. */

interface Context {
  readonly parentURL?: string;
}
interface Resolved {
  readonly url: string;
  readonly shortCircuit?: boolean;
}

const shim = new URL("./conformance-fs.js", import.meta.url).href;

export async function resolve(
  specifier: string,
  context: Context,
  next: (specifier: string, context: Context) => Promise<Resolved>,
): Promise<Resolved> {
  const fromSuite = /\/@modelcontextprotocol\/conformance(-next)?\//.test(context.parentURL ?? "");
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) return { url: shim, shortCircuit: true };
  return next(specifier, context);
}
