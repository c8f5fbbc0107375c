// What a host feels: a small hot set of tools called all day (an agent in a session, a gateway in front of one or two
// servers), and the per-call time as the number of tools a call site cycles through grows. Generated code runs one
// function per schema and slows as the functions stop fitting; an interpreter shares its code between all of them.

/** Tools in the hot set: about what one or two servers list. */
export const HOT_SET_TOOLS = 40;

/** The tool counts of the per-call table besides the hot set's. */
export const TOOL_COUNTS = [100, 200, 400];

/**
 * `count` of the corpus cases, spread evenly over it (so that the set holds many servers' shapes, not the first
 * server's alone); past the corpus's size, its cases again, each a fresh copy with its own id (compiled anew).
 */
export function spreadTools(corpus, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const round = Math.floor(i / corpus.length);
    const at = i % corpus.length;
    const picked = corpus[count <= corpus.length ? Math.floor((i * corpus.length) / count) : at];
    out.push(round === 0 ? picked : { ...JSON.parse(JSON.stringify(picked)), id: `${picked.id} (copy ${round})` });
  }
  return out;
}
