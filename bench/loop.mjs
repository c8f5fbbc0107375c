// The timing loop. steady.mjs imports this file once per library and workload, each time under its own URL
// (`loop.mjs?lib=ajv&workload=suite`): every import is a separate module instance whose functions carry their own
// call-site feedback, so what V8 learns while timing one library never shapes the code that times another. (Closures
// made by one shared factory would share that feedback; separate module instances do not.)

/** Makes `passes` passes over the calls `fns[i](args[i])`; returns how many answered truthy. */
export function run(fns, args, passes) {
  const n = fns.length;
  let truthy = 0;
  for (let p = 0; p < passes; p++) for (let i = 0; i < n; i++) if (fns[i](args[i])) truthy++;
  return truthy;
}

/** The same for libraries whose compile is asynchronous (each call is awaited before the next). */
export async function runAsync(fns, args, passes) {
  const n = fns.length;
  let truthy = 0;
  for (let p = 0; p < passes; p++) for (let i = 0; i < n; i++) if (await fns[i](args[i])) truthy++;
  return truthy;
}

/** admit: compiles each case's schema with `compiles[i]`, then validates the case's first call with the result. */
export function runAdmit(compiles, cases, passes) {
  const n = compiles.length;
  let truthy = 0;
  for (let p = 0; p < passes; p++)
    for (let i = 0; i < n; i++) if (compiles[i](cases[i].schema)(cases[i].tests[0].data)) truthy++;
  return truthy;
}

export async function runAdmitAsync(compiles, cases, passes) {
  const n = compiles.length;
  let truthy = 0;
  for (let p = 0; p < passes; p++)
    for (let i = 0; i < n; i++) if ((await compiles[i](cases[i].schema))(cases[i].tests[0].data)) truthy++;
  return truthy;
}
