/** `compile` with a dialect: options checked fail closed, the schema compiled, meta-schema checks wired in. */

import { Compilation } from "./compiler.js";
import type { CompileOptions } from "./compile-options.js";
import type { DialectDefinition } from "./dialect.js";
import { LimitError } from "./errors.js";
import { resolveLimits } from "./limits.js";
import { metaCheckFor } from "./meta-check.js";
import { checkOptions, compileOptionChecks } from "./options.js";
import { Validator } from "./validator.js";

/** Compiles a schema with a dialect (the package root binds the 2020-12 dialect); throws `SchemaError`. */
export function compileWith(dialect: DialectDefinition, schema: unknown, options: CompileOptions = {}): Validator {
  return compileInternal(dialect, schema, options, true);
}

function compileInternal(
  dialect: DialectDefinition,
  schema: unknown,
  options: CompileOptions,
  checkRoot: boolean,
): Validator {
  checkOptions(options, compileOptionChecks, "compile");
  const limits = resolveLimits(options.limits);
  const metaCheck = metaCheckFor(dialect, options, (wrapper, metaOptions) =>
    compileInternal(dialect, wrapper, metaOptions, false),
  );
  const compilation = new Compilation(dialect, options, limits, metaCheck, checkRoot);
  try {
    const root = compilation.node(compilation.addRoot(schema));
    return new Validator(root, limits, compilation.usesDynamicScope, schema);
  } catch (e) {
    // Compilation recurses with the schema's nesting, which maxSchemaDepth bounds; this is the last guard.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      throw new LimitError("maxSchemaDepth", limits.maxSchemaDepth);
    throw e;
  }
}
