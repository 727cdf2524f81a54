/** What the server answers from a chain view: bounds by the head, missing blocks, and the size limit. */
import {Block, type BlockHeader} from "@xchain/primitives";
import {bytesToHex} from "@xchain/utils";
import {beforeAll, describe, expect, it} from "vitest";
import {bodiesFor, headersFor} from "../src/server.ts";
import {MAX_MESSAGE_BYTES, type P2PChainView} from "../src/types.ts";
import {encodeBody} from "../src/wire/bodies.ts";
import {buildBlocks, chainWith, transfer} from "./support/chain.ts";

let headers: BlockHeader[];
beforeAll(async () => {
  headers = (await buildBlocks(3)).blocks.map((b) => b.header);
});

/** A chain view over some blocks (by hash) whose canonical headers are `headers`, head at `headNumber`. */
function view(blocks: Block[], headNumber: number): P2PChainView & {reads: number[]} {
  const byHash = new Map(blocks.map((b) => [bytesToHex(b.hash()), b]));
  const reads: number[] = [];
  return {
    reads,
    genesisHash: new Uint8Array(32),
    head: () => ({hash: new Uint8Array(32), number: headNumber, totalDifficulty: 1n}),
    getHeader: async (hash) => byHash.get(bytesToHex(hash))?.header,
    getHeaderByNumber: async (n) => {
      reads.push(n);
      return headers[n - 1];
    },
    getBodyEncoding: async (hash) => {
      const block = byHash.get(bytesToHex(hash));
      return block && encodeBody(block);
    },
  };
}

describe("headersFor", () => {
  it("reads canonical headers up to the head only, and stops at the first missing one", async () => {
    const chain = view([], 2);
    const found = await headersFor(chain, {kind: "byNumber", start: 1, count: 192});
    expect(found.map((h) => h.number)).toEqual([1, 2]);
    expect(chain.reads).toEqual([1, 2]);
    const beyond = view([], 10);
    expect((await headersFor(beyond, {kind: "byNumber", start: 2, count: 5})).map((h) => h.number)).toEqual([2, 3]);
    expect(beyond.reads).toEqual([2, 3, 4]);
    expect(await headersFor(view([], 3), {kind: "byNumber", start: Number.MAX_SAFE_INTEGER, count: 192})).toEqual([]);
  });
});

describe("bodiesFor", () => {
  it("stops before the response would exceed MAX_MESSAGE_BYTES", async () => {
    const data = new Uint8Array(1024 * 1024);
    const big = (n: number) =>
      new Block(
        headers[n] as BlockHeader,
        Array.from({length: 3}, (_, i) => transfer(BigInt(n * 3 + i), 1n, data)),
        [],
      );
    const blocks = [big(0), big(1), big(2)];
    const hashes = blocks.map((b) => b.hash());
    const bodies = await bodiesFor(view(blocks, 3), [...hashes, hashes[0] as Uint8Array]);
    // Three bodies of just over 3 MiB fit; a fourth would pass 10 MiB.
    expect(bodies).toHaveLength(3);
    expect(bodies.reduce((n, b) => n + b.length, 0)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const missing = await bodiesFor(view(blocks, 3), [
      hashes[1] as Uint8Array,
      new Uint8Array(32),
      hashes[2] as Uint8Array,
    ]);
    expect(missing).toHaveLength(1);
  });

  it("serves a chain's stored bodies as encodeBody encodes its blocks (transactions as received, uncles)", async () => {
    // Block 1 carries a transfer and block 3 an uncle: the stored bytes go out as they are, undecoded.
    const {blocks} = await buildBlocks(3);
    const chain = await chainWith(blocks);
    const bodies = await bodiesFor(chain, [...blocks.map((b) => b.hash()), new Uint8Array(32)]);
    expect(bodies.map(bytesToHex)).toEqual(blocks.map((b) => bytesToHex(encodeBody(b))));
  });
});
