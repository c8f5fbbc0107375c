// What the primitives under the gateway's per-call path cost by themselves (`node bench/primitives.mjs`), so that the
// floor docs/project/performance.md quotes for `Execution.invoke` can be measured again: the questions a walk can ask
// of a property without reading it (is it an accessor, is it enumerable), `Object.freeze` of a context, and the shapes
// an asynchronous call can take. Each case runs in rounds, interleaved with the others, timed by the process's CPU
// time; the median of the rounds is printed, per call (per object for the property questions).

const ROUNDS = 9;
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let sink = 0;

/** Runs every case of a group in rounds, interleaved; prints each one's median time per call. */
async function group(title, calls, cases) {
  const times = new Map(cases.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of cases) {
      const t0 = cpu();
      sink += await run(calls);
      if (round > 0) times.get(name).push((cpu() - t0) / calls);
    }
  }
  console.log(`\n${title}`);
  for (const [name, xs] of times) console.log(`  ${median(xs).toFixed(1).padStart(7)} ns  ${name}`);
}

// 50 objects of three properties each, of 50 shapes (as a hot set's arguments are): per object.
const objects = Array.from({ length: 50 }, (_, i) => JSON.parse(`{"k${i}":1,"b":"x","c":${i}}`));
const lookupGetter = Object.prototype.__lookupGetter__;
const describe = Object.getOwnPropertyDescriptor;
const isEnumerable = Object.prototype.propertyIsEnumerable;
const perObject = (f) => (calls) => {
  let n = 0;
  for (let i = 0; i < calls; i++) n += f(objects[i % 50]);
  return n;
};
await group("Asking the properties of an object (3 properties, 50 shapes), per object", 500_000, [
  ["Object.keys", perObject((o) => Object.keys(o).length)],
  ["Object.getOwnPropertyNames", perObject((o) => Object.getOwnPropertyNames(o).length)],
  [
    "for…in with an own-key check",
    perObject((o) => {
      let n = 0;
      for (const k in o) if (Object.hasOwn(o, k)) n++;
      return n;
    }),
  ],
  [
    "Object.keys, then __lookupGetter__ per property",
    perObject((o) => {
      const keys = Object.keys(o);
      let n = 0;
      for (let i = 0; i < keys.length; i++) if (lookupGetter.call(o, keys[i]) === undefined) n++;
      return n;
    }),
  ],
  [
    "Object.keys, then getOwnPropertyDescriptor per property",
    perObject((o) => {
      const keys = Object.keys(o);
      let n = 0;
      for (let i = 0; i < keys.length; i++) if (describe(o, keys[i]).get === undefined) n++;
      return n;
    }),
  ],
  [
    "Object.keys, then propertyIsEnumerable per property",
    perObject((o) => {
      const keys = Object.keys(o);
      let n = 0;
      for (let i = 0; i < keys.length; i++) if (isEnumerable.call(o, keys[i])) n++;
      return n;
    }),
  ],
]);

// The six fields of a stage context, each kept a while (as a call keeps its context), so none is optimised away.
const tool = { name: "t" };
const authority = {};
const kept = new Array(1024);
await group("A context of six fields, per object", 2_000_000, [
  [
    "an object literal",
    (calls) => {
      let n = 0;
      for (let i = 0; i < calls; i++) {
        const c = { tool, name: "t", serverName: "t", arguments: i, authority, grant: undefined };
        kept[i & 1023] = c;
        n += c.arguments & 1;
      }
      return n;
    },
  ],
  [
    "the same, frozen",
    (calls) => {
      let n = 0;
      for (let i = 0; i < calls; i++) {
        const c = Object.freeze({ tool, name: "t", serverName: "t", arguments: i, authority, grant: undefined });
        kept[i & 1023] = c;
        n += c.arguments & 1;
      }
      return n;
    },
  ],
]);

// A call whose work answers at once, awaited by its caller: the shapes `Execution.invoke` could take.
const RESULT = { content: [] };
const work = () => RESULT;
const inner = async () => ({ ok: true, value: await work() });
const settled = () => Promise.resolve({ ok: true, value: work() });
const awaited = (f) => async (calls) => {
  let n = 0;
  for (let i = 0; i < calls; i++) if (await f()) n++;
  return n;
};
await group("A call answering at once, awaited by its caller, per call", 1_000_000, [
  ["an async function awaiting the work (the host by hand)", awaited(async () => (await work()) === RESULT)],
  ["an async function awaiting one that awaits the work", awaited(async () => (await inner()).ok)],
  ["an async function awaiting a settled promise", awaited(async () => (await settled()).ok)],
]);
console.log(`\n(${sink})`);
