// What LevelDB's paranoid checks cost (docs/performance.md §18): random point reads of a database of N
// keys larger than LevelDB's block cache, and batch writes, with `paranoidChecks` off and on (the
// patched classic-level binding: verify_checksums on every read, paranoid_checks on open and
// compaction). Alternates the two settings over several rounds on the same files.
// Usage: node scripts/bench/levelChecksums.mjs [keys=400000] [reads=200000] [rounds=3]
import {randomBytes} from "node:crypto";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {ClassicLevel} from "classic-level";

const [keys = 400_000, reads = 200_000, rounds = 3] = process.argv.slice(2).map(Number);
const encoding = {keyEncoding: "view", valueEncoding: "view"};
const dir = mkdtempSync(join(tmpdir(), "xchain-bench-level-"));
const keyOf = (i) => {
  const key = new Uint8Array(33);
  key[0] = 1;
  new DataView(key.buffer).setUint32(1, Math.imul(i, 2654435761) >>> 0);
  new DataView(key.buffer).setUint32(5, i);
  return key;
};

async function withDb(paranoidChecks, fn) {
  const db = new ClassicLevel(dir, encoding);
  await db.open({paranoidChecks});
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const writeStart = performance.now();
await withDb(false, async (db) => {
  for (let i = 0; i < keys; i += 1_000) {
    const ops = [];
    for (let j = i; j < Math.min(i + 1_000, keys); j++) ops.push({type: "put", key: keyOf(j), value: randomBytes(110)});
    await db.batch(ops);
  }
  await db.compactRange(Uint8Array.of(0), Uint8Array.of(0xff));
});
console.log(`filled ${keys} keys in ${((performance.now() - writeStart) / 1000).toFixed(1)} s`);

const order = Array.from({length: reads}, () => Math.floor(Math.random() * keys));
const results = {false: [], true: []};
for (let round = 0; round < rounds; round++) {
  for (const paranoid of [false, true]) {
    const us = await withDb(paranoid, async (db) => {
      const start = performance.now();
      for (const i of order) await db.get(keyOf(i));
      return ((performance.now() - start) * 1000) / reads;
    });
    results[paranoid].push(us);
    console.log(`round ${round + 1}, paranoidChecks ${paranoid}: ${us.toFixed(2)} µs per random get`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const off = median(results.false);
const on = median(results.true);
console.log(
  `median: off ${off.toFixed(2)} µs, on ${on.toFixed(2)} µs per random get (${(((on - off) / off) * 100).toFixed(1)} %)`,
);
rmSync(dir, {recursive: true, force: true});
