// What `xchain db export` and `xchain db inspect` read of a stored chain (docs/operations.md §5): the
// canonical blocks' encodings, which a fresh chain imports to the same head, and the summary with the
// oldest block whose state is stored, found by probing roots as a pruned store leaves them.
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {Bucket, MemoryStore, numberKey, WriteBatch} from "@xchain/db";
import {type Block, BlockHeader} from "@xchain/primitives";
import {bytesToPrefixedHex, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  Chain,
  ChainError,
  ChainErrorCode,
  canonicalBlocks,
  defaultChainOptions,
  SCHEMA_VERSION,
  summarizeChainStore,
} from "../src/index.ts";
import {cows, newBuilder, signTx} from "./helpers.ts";

const chainspec = getChainspec("regtest");
const BLOCKS = 12;

async function chainOfTransfers(): Promise<{store: MemoryStore; built: Block[]}> {
  const store = new MemoryStore();
  const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
  const builder = await newBuilder();
  const built: Block[] = [];
  for (let n = 1; n <= BLOCKS; n++) {
    const to = keccak256(Uint8Array.of(n)).subarray(12);
    const block = await builder.buildBlock({
      transactions: [signTx(cows[0]!, {nonce: BigInt(n - 1), to, value: BigInt(n)})],
    });
    expect((await chain.importBlock(block)).kind).toBe("IMPORTED_BEST");
    built.push(block);
  }
  return {store, built};
}

/** Deletes the root node of the state after each canonical block in `numbers`, as a pruner would. */
async function dropStates(store: MemoryStore, numbers: number[]): Promise<void> {
  const batch = new WriteBatch();
  for (const n of numbers) {
    const hash = (await store.get(Bucket.canonicalHash, numberKey(n))) as Uint8Array;
    const header = BlockHeader.decode((await store.get(Bucket.header, hash)) as Uint8Array, chainspec);
    batch.del(Bucket.stateTrie, header.stateRoot);
  }
  await store.write(batch);
}

const range = (from: number, to: number) => Array.from({length: to - from + 1}, (_, i) => from + i);

describe("the canonical blocks of a store", () => {
  it("are the blocks' own encodings, and a fresh chain imports them to the same head", async () => {
    const {store, built} = await chainOfTransfers();
    const read = [];
    for await (const block of canonicalBlocks(store, chainspec, {from: 0, to: BLOCKS})) read.push(block);
    expect(read.map((b) => b.number)).toEqual(range(0, BLOCKS));
    for (const [i, block] of built.entries()) {
      expect(read[i + 1]?.encoding).toEqual(block.encode());
      expect(read[i + 1]?.hash).toEqual(block.hash());
    }
    const fresh = await Chain.open(defaultChainOptions, {store: new MemoryStore(), chainspec, genesis: regtestGenesis});
    expect((await fresh.importBlock(read[0]!.encoding)).kind).toBe("EXIST");
    for (const block of read.slice(1)) expect((await fresh.importBlock(block.encoding)).kind).toBe("IMPORTED_BEST");
    expect(fresh.head().hash).toEqual(built.at(-1)?.hash());
  });

  it("stop at a block whose body is lost, naming it", async () => {
    const {store} = await chainOfTransfers();
    const hash5 = (await store.get(Bucket.canonicalHash, numberKey(5))) as Uint8Array;
    await store.write(new WriteBatch().del(Bucket.body, hash5));
    const numbers: number[] = [];
    const reading = (async () => {
      for await (const block of canonicalBlocks(store, chainspec, {from: 2, to: BLOCKS})) numbers.push(block.number);
    })();
    await expect(reading).rejects.toThrow(`block 5 (${bytesToPrefixedHex(hash5)}) has no body`);
    await expect(reading).rejects.toSatisfy(
      (e) => e instanceof ChainError && e.type.code === ChainErrorCode.MISSING_DATA && e.type.missing === "body",
    );
    expect(numbers).toEqual([2, 3, 4]);
  });
});

describe("the summary of a store", () => {
  it("names the schema, chain id, genesis and head; an archive store serves state from the genesis", async () => {
    const {store, built} = await chainOfTransfers();
    const summary = await summarizeChainStore(store, chainspec);
    const genesis = bytesToPrefixedHex((await store.get(Bucket.canonicalHash, numberKey(0))) as Uint8Array);
    expect(summary).toEqual({
      schemaVersion: SCHEMA_VERSION,
      chainId: chainspec.params.chainId,
      genesis: {number: 0, hash: genesis},
      head: {number: BLOCKS, hash: bytesToPrefixedHex(built.at(-1)!.hash())},
      fork: undefined,
      oldestState: {number: 0, hash: genesis},
    });
  });

  it.each([
    ["the oldest states pruned", range(0, 6), 7],
    ["all but the head's state pruned", range(0, BLOCKS - 1), BLOCKS],
    ["the states in between pruned, the genesis state kept", range(1, 4), 5],
    ["only block 1's state pruned, the genesis state kept", [1], 2],
  ])("finds the oldest block whose state is stored: %s", async (_, dropped, oldest) => {
    const {store} = await chainOfTransfers();
    await dropStates(store, dropped);
    const summary = await summarizeChainStore(store, chainspec);
    const hash = bytesToPrefixedHex((await store.get(Bucket.canonicalHash, numberKey(oldest))) as Uint8Array);
    expect(summary.oldestState).toEqual({number: oldest, hash});
  });

  it("says no state is served when the head's own state is gone", async () => {
    const {store} = await chainOfTransfers();
    await dropStates(store, [BLOCKS]);
    expect((await summarizeChainStore(store, chainspec)).oldestState).toBeUndefined();
  });

  it("of an empty store has nothing", async () => {
    expect(await summarizeChainStore(new MemoryStore(), chainspec)).toMatchObject({
      schemaVersion: undefined,
      head: undefined,
      oldestState: undefined,
    });
  });
});
