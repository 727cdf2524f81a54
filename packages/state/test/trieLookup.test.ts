import {createMPT} from "@ethereumjs/mpt";
import {MapDB, ValueEncoding} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {StateError, StateErrorCode} from "../src/errors.ts";
import {EMPTY_TRIE_ROOT} from "../src/trie.ts";
import {lookupTrieValue, type TrieNodeSource} from "../src/trieLookup.ts";
import {trieKeys} from "./trieArbitraries.ts";

/** Entries with short values too: short nodes, which the trie inlines in their parent. */
function entries(length: number) {
  return fc.array(fc.tuple(trieKeys(length), fc.uint8Array({minLength: 1, maxLength: 40})), {maxLength: 40});
}

/** The MPT's database as a node source; every other read goes to the store, as a cold cache's would. */
function sourceOf(db: MapDB<string, Uint8Array>, cachedEvery: number): TrieNodeSource & {storeReads: number} {
  let n = 0;
  const source = {
    storeReads: 0,
    cachedNode: (hash: Uint8Array) => (n++ % cachedEvery === 0 ? undefined : db._database.get(bytesToHex(hash))),
    node: async (hash: Uint8Array) => {
      source.storeReads++;
      return db._database.get(bytesToHex(hash));
    },
  };
  return source;
}

describe("lookupTrieValue", () => {
  for (const length of [1, 2, 32]) {
    it(`reads what the MPT reads, present and absent keys, in random tries of ${length}-byte keys`, async () => {
      await fc.assert(
        fc.asyncProperty(entries(length), fc.array(trieKeys(length), {maxLength: 10}), async (written, probes) => {
          const db = new MapDB<string, Uint8Array>();
          const trie = await createMPT({db, valueEncoding: ValueEncoding.Bytes});
          for (const [key, value] of written) await trie.put(key, value);
          const source = sourceOf(db, 2);
          for (const key of [...written.map(([key]) => key), ...probes]) {
            const expected = await trie.get(key);
            const read = await lookupTrieValue(source, trie.root(), key);
            expect(read && bytesToHex(read)).toBe(expected === null ? undefined : bytesToHex(expected));
          }
          if (written.length > 0) expect(source.storeReads).toBeGreaterThan(0);
        }),
        {seed: 21, numRuns: 300},
      );
    });
  }

  it("answers undefined at the empty trie without reading a node", async () => {
    const source = sourceOf(new MapDB(), 1);
    expect(await lookupTrieValue(source, EMPTY_TRIE_ROOT, new Uint8Array(32))).toBeUndefined();
    expect(source.storeReads).toBe(0);
  });

  it("throws NODE_MISSING when a referenced node is not in the source", async () => {
    const db = new MapDB<string, Uint8Array>();
    const trie = await createMPT({db, valueEncoding: ValueEncoding.Bytes});
    for (let i = 0; i < 20; i++) await trie.put(Uint8Array.of(i * 13, i), new Uint8Array(40).fill(i));
    const empty: TrieNodeSource = {cachedNode: () => undefined, node: async () => undefined};
    const error = await lookupTrieValue(empty, trie.root(), Uint8Array.of(13, 1)).catch((e) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as StateError).code).toBe(StateErrorCode.NODE_MISSING);
  });
});
