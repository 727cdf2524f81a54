// Compares two V8 heap snapshots (.heapsnapshot files, e.g. the two soak.mjs --heap-snapshots
// writes): the self size and count of the objects of each constructor (node type and name) in
// both, sorted by growth, to show what a long run accumulates. Parses whole snapshots: give it
// memory (node --max-old-space-size=4096) for large ones.
//
//   node scripts/bench/soak/heapDiff.mjs before.heapsnapshot after.heapsnapshot [rows=30]
import {readFileSync} from "node:fs";

const [beforePath, afterPath, rowsArg] = process.argv.slice(2);
if (!beforePath || !afterPath) throw new Error("usage: heapDiff.mjs before.heapsnapshot after.heapsnapshot [rows]");
const rows = Number(rowsArg ?? 30);

/** Self size and count by "type name" (strings and arrays grouped by type alone). */
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
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const name = type === "object" || type === "closure" || type === "native" ? strings[nodes[i + nameAt]] : "";
    const key = `${type} ${name}`.slice(0, 80);
    const group = groups.get(key) ?? {count: 0, bytes: 0};
    group.count++;
    group.bytes += nodes[i + sizeAt];
    groups.set(key, group);
  }
  return groups;
}

const before = aggregate(beforePath);
const after = aggregate(afterPath);
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
