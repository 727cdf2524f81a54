import {createMPT} from "@ethereumjs/mpt";
import {MapDB, ValueEncoding} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {applyTrieWrites, type TrieWrite} from "../src/batchTrie.ts";
import {DecodedTop} from "../src/decodedTop.ts";
import {lookupTrieValue, type TrieNodeSource} from "../src/trieLookup.ts";
import {trieKeys} from "./trieArbitraries.ts";

/** Batches of writes and deletes; short values make nodes the trie embeds in their parent. */
function batches(length: number) {
  const write = fc
    .tuple(trieKeys(length), fc.option(fc.uint8Array({minLength: 1, maxLength: 40}), {freq: 4}))
    .map(([key, value]): TrieWrite => [key, value ?? undefined]);
  return fc.array(fc.array(write, {maxLength: 25}), {minLength: 1, maxLength: 6});
}

/** The MPT's database as a node source, counting the nodes read from it. */
function sourceOf(db: MapDB<string, Uint8Array>): TrieNodeSource & {reads: number} {
  const source = {
    reads: 0,
    cachedNode: () => undefined,
    node: async (hash: Uint8Array) => {
      source.reads++;
      return db._database.get(bytesToHex(hash));
    },
  };
  return source;
}

describe("DecodedTop", () => {
  for (const [length, levels] of [
    [2, 1],
    [2, 2],
    [32, 2],
    [32, 3],
  ] as const) {
    it(`keeps ${levels} level(s) between batches: the MPT's roots and reads, ${length}-byte keys`, async () => {
      await fc.assert(
        fc.asyncProperty(batches(length), fc.array(trieKeys(length), {maxLength: 10}), async (written, probes) => {
          const reference = await createMPT({db: new MapDB<string, Uint8Array>(), valueEncoding: ValueEncoding.Bytes});
          const db = new MapDB<string, Uint8Array>();
          const trie = await createMPT({db, valueEncoding: ValueEncoding.Bytes});
          const top = new DecodedTop(levels);
          const source = sourceOf(db);
          const seen: Uint8Array[] = [...probes];
          for (const batch of written) {
            for (const [key, value] of batch) await (value ? reference.put(key, value) : reference.del(key));
            const root = await applyTrieWrites(trie.database(), trie.root(), batch, top);
            expect(bytesToHex(root)).toBe(bytesToHex(reference.root()));
            trie.root(root);
            seen.push(...batch.map(([key]) => key));
            for (const key of seen) {
              const expected = await reference.get(key);
              const read = await lookupTrieValue(source, root, key, top);
              expect(read && bytesToHex(read)).toBe(expected === null ? undefined : bytesToHex(expected));
            }
          }
        }),
        {seed: 28, numRuns: 150},
      );
    });
  }

  it("answers from the kept nodes without reading them, and only for the root they hash to", async () => {
    const db = new MapDB<string, Uint8Array>();
    const trie = await createMPT({db, valueEncoding: ValueEncoding.Bytes});
    const entries: TrieWrite[] = Array.from({length: 300}, (_, i) => [
      Uint8Array.of(i & 0xff, (i * 7) & 0xff, i >> 8),
      new Uint8Array(40).fill(i & 0xff),
    ]);
    const top = new DecodedTop(2);
    const first = await applyTrieWrites(trie.database(), trie.root(), entries.slice(0, 200), top);
    const source = sourceOf(db);
    // Two levels kept: a lookup reads the nodes below them only (a third level, then the leaf).
    expect(bytesToHex((await lookupTrieValue(source, first, entries[5]![0], top))!)).toBe(bytesToHex(entries[5]![1]!));
    const keptReads = source.reads;
    source.reads = 0;
    expect(bytesToHex((await lookupTrieValue(source, first, entries[5]![0]))!)).toBe(bytesToHex(entries[5]![1]!));
    expect(keptReads).toBeLessThan(source.reads);

    // A batch from another root finds nothing kept for it, reads the trie and keeps its own result.
    const other = await createMPT({db, valueEncoding: ValueEncoding.Bytes});
    const second = await applyTrieWrites(other.database(), other.root(), entries.slice(200), top);
    expect(await lookupTrieValue(source, first, entries[5]![0], top)).toEqual(entries[5]![1]);
    expect(await lookupTrieValue(source, second, entries[5]![0], top)).toBeUndefined();
    expect(await lookupTrieValue(source, second, entries[250]![0], top)).toEqual(entries[250]![1]);
    // The first root's kept nodes were dropped: a batch there reads them again, with the same result.
    const third = await applyTrieWrites(trie.database(), first, entries.slice(200), top);
    const reference = await createMPT({db: new MapDB<string, Uint8Array>(), valueEncoding: ValueEncoding.Bytes});
    for (const [key, value] of entries) await reference.put(key, value!);
    expect(bytesToHex(third)).toBe(bytesToHex(reference.root()));
  });
});
