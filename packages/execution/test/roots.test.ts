/** The one-pass ordered-trie root against @ethereumjs/mpt inserting RLP(i) → value key by key. */
import {createMPT, verifyMerkleProof} from "@ethereumjs/mpt";
import {encodeRlp, encodeUnsigned} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {orderedTrieProof, orderedTrieRoot} from "../src/index.ts";

async function mptRoot(values: Uint8Array[]): Promise<Uint8Array> {
  const trie = await createMPT();
  for (const [i, value] of values.entries()) await trie.put(encodeRlp(encodeUnsigned(BigInt(i))), value);
  return trie.root();
}

// Deterministic pseudo-random values of 1..80 bytes: short ones make embedded (< 32-byte) nodes.
function values(count: number, seed: number): Uint8Array[] {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x >>> 16;
  };
  return Array.from({length: count}, () => Uint8Array.from({length: 1 + (next() % 80)}, () => next() & 255));
}

describe("orderedTrieRoot", () => {
  for (const count of [0, 1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 255, 256, 300]) {
    it(`matches @ethereumjs/mpt for ${count} entries`, async () => {
      for (const seed of [1, 2, 3]) {
        const list = values(count, seed * 1000 + count);
        expect(orderedTrieRoot(list)).toEqual(await mptRoot(list));
      }
    });
  }

  it("matches for one-byte values (every node embedded)", async () => {
    const list = Array.from({length: 40}, (_, i) => Uint8Array.of(i));
    expect(orderedTrieRoot(list)).toEqual(await mptRoot(list));
  });
});

describe("orderedTrieProof", () => {
  const keyOf = (i: number) => encodeRlp(encodeUnsigned(BigInt(i)));

  for (const count of [1, 2, 17, 130]) {
    it(`proves every entry of ${count} against the root with @ethereumjs/mpt's verifier`, async () => {
      const list = values(count, 7 + count);
      const root = orderedTrieRoot(list);
      for (let i = 0; i < count; i++) {
        const proof = orderedTrieProof(list, i);
        expect(await verifyMerkleProof(keyOf(i), proof, {root})).toEqual(list[i]);
      }
    });
  }

  it("lists no embedded node apart", async () => {
    const list = Array.from({length: 40}, (_, i) => Uint8Array.of(i));
    const root = orderedTrieRoot(list);
    const proof = orderedTrieProof(list, 21);
    expect(proof.slice(1).every((node) => node.length >= 32)).toBe(true);
    expect(await verifyMerkleProof(keyOf(21), proof, {root})).toEqual(list[21]);
  });

  it("refuses an index outside the list", () => {
    expect(() => orderedTrieProof([Uint8Array.of(1)], 1)).toThrow(RangeError);
  });
});
