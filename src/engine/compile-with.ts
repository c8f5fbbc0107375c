/** `compile` with a dialect: options checked fail closed, the schema compiled, meta-schema checks wired in. */

import { Compilation } from "./compile/compiler.js";
import type { CompileOptions } from "./compile/compile-options.js";
import type { DialectDefinition } from "./compile/dialect.js";
import { LimitError } from "./errors.js";
import { resolveFormats } from "./compile/formats.js";
import { withHostVocabularies } from "./compile/host-vocabularies.js";
import { resolveLimits } from "./limits.js";
import { metaCheckFor } from "./compile/meta-check.js";
import { checkOptions, compileOptionChecks } from "./options.js";
import { Validator } from "./validator.js";

/** Compiles a schema with a dialect (the package root binds the 2020-12 dialect); throws `SchemaError`. */
export function compileWith<T = unknown>(
  dialect: DialectDefinition,
  schema: unknown,
  options: CompileOptions = {},
): Validator<T> {
  return compileInternal(dialect, schema, options, true) as Validator<T>;
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
  // The host's formats and vocabularies are read once, here: a host object changed later changes nothing compiled.
  const formats = resolveFormats(dialect.formats, options.formats, limits);
  const extended = withHostVocabularies(dialect, options.vocabularies);
  const compilation = new Compilation(extended, options, limits, formats, metaCheck, checkRoot);
  try {
    const root = compilation.node(compilation.addRoot(schema));
    return new Validator(root, limits, compilation.usesDynamicScope, schema, options.messages);
  } catch (e) {
    // Compilation recurses with the schema's nesting, which maxSchemaDepth bounds; this is the last guard.
    if (e instanceof RangeError && /call stack/i.test(e.message))
      throw new LimitError("maxSchemaDepth", limits.maxSchemaDepth);
    throw e;
  }
}
