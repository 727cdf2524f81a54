// Compares two V8 heap snapshots (.heapsnapshot files, e.g. the two soak.mjs --heap-snapshots
// writes): the self size and count of the objects of each constructor (node type and name) in
// both, sorted by growth, to show what a long run accumulates; then the largest single objects of
// the second (V8's large-object space: hash tables of big Maps, long arrays and strings). Parses whole snapshots: give it
// memory (node --max-old-space-size=4096) for large ones.
//
//   node scripts/bench/soak/heapDiff.mjs before.heapsnapshot after.heapsnapshot [rows=30]
import {readFileSync} from "node:fs";

const [beforePath, afterPath, rowsArg] = process.argv.slice(2);
if (!beforePath || !afterPath) throw new Error("usage: heapDiff.mjs before.heapsnapshot after.heapsnapshot [rows]");
const rows = Number(rowsArg ?? 30);

/** Self size and count by "type name" (strings and arrays grouped by type alone), and the largest objects. */
function aggregate(path) {
  const snapshot = JSON.parse(readFileSync(path, "utf8"));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const {nodes, strings} = snapshot;
  const groups = new Map();
  const largest = [];
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const name = type === "object" || type === "closure" || type === "native" ? strings[nodes[i + nameAt]] : "";
    const key = `${type} ${name}`.slice(0, 80);
    const group = groups.get(key) ?? {count: 0, bytes: 0};
    const size = nodes[i + sizeAt];
    group.count++;
    group.bytes += size;
    groups.set(key, group);
    if (size >= LARGE_OBJECT_BYTES) largest.push({key: `${type} ${strings[nodes[i + nameAt]]}`.slice(0, 80), size});
  }
  return {groups, largest: largest.sort((a, b) => b.size - a.size)};
}

/** V8 keeps objects of this size and more in its large-object space. */
const LARGE_OBJECT_BYTES = 128 * 1024;

const before = aggregate(beforePath).groups;
const {groups: after, largest} = aggregate(afterPath);
const zero = {count: 0, bytes: 0};
const total = (groups) => [...groups.values()].reduce((a, g) => a + g.bytes, 0);
const diffs = [...new Set([...before.keys(), ...after.keys()])]
  .map((key) => {
    const b = before.get(key) ?? zero;
    const a = after.get(key) ?? zero;
    return {key, bytes: a.bytes - b.bytes, count: a.count - b.count, after: a};
  })
  .sort((x, y) => y.bytes - x.bytes);
const kib = (n) => (n / 1024).toFixed(0).padStart(9);
console.log(`self size ${kib(total(before))} KiB → ${kib(total(after))} KiB`);
console.log(
  `${"growth KiB".padStart(10)} ${"count".padStart(9)} ${"now KiB".padStart(9)} ${"now count".padStart(9)}  type name`,
);
for (const d of diffs.slice(0, rows)) {
  console.log(
    `${kib(d.bytes)} ${String(d.count).padStart(9)} ${kib(d.after.bytes)} ${String(d.after.count).padStart(9)}  ${d.key}`,
  );
}
const largeTotal = largest.reduce((a, o) => a + o.size, 0);
console.log(
  `\n${largest.length} objects of 128 KiB or more in the second, ${kib(largeTotal).trim()} KiB; the largest:`,
);
for (const o of largest.slice(0, rows)) console.log(`${kib(o.size)}  ${o.key}`);
