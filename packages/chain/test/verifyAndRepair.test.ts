// The walks behind `xchain db verify` and `xchain db repair` (docs/operations.md §6) on a chain of
// transfers: a whole chain verifies whole; a lost state node is found and rebuilt by re-execution;
// a lost body is found, and the rewind forgets every block above the last whole one.
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {Bucket, MemoryStore, numberKey, WriteBatch} from "@xchain/db";
import {keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  Chain,
  defaultChainOptions,
  rebuildState,
  restoreGenesis,
  rewindChain,
  verifyChain,
  verifyStateAt,
} from "../src/index.ts";
import {cows, newBuilder, signTx} from "./helpers.ts";

const chainspec = getChainspec("regtest");
const BLOCKS = 8;

async function chainOfTransfers(): Promise<MemoryStore> {
  const store = new MemoryStore();
  const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
  const builder = await newBuilder();
  for (let n = 1; n <= BLOCKS; n++) {
    const to = keccak256(Uint8Array.of(n)).subarray(12);
    const block = await builder.buildBlock({
      transactions: [signTx(cows[0]!, {nonce: BigInt(n - 1), to, value: BigInt(n)})],
    });
    expect((await chain.importBlock(block)).kind).toBe("IMPORTED_BEST");
  }
  return store;
}

describe("verifying and repairing a stored chain", () => {
  it("finds a whole chain whole, and a lost state node; the rebuild by re-execution brings it back", async () => {
    const store = await chainOfTransfers();
    const whole = await verifyChain(store, {chainspec});
    expect(whole.damage).toBeUndefined();
    expect(whole.wholeThrough).toBe(BLOCKS);
    expect(whole.state?.damage).toBeUndefined();
    expect(whole.state?.accounts).toBeGreaterThan(BLOCKS);

    // Lose every state node (code and trie alike): the blocks are whole, the state is not.
    const lost = new WriteBatch();
    for await (const [key] of store.entries(Bucket.stateTrie)) lost.del(Bucket.stateTrie, key);
    await store.write(lost);
    expect((await verifyChain(store, {chainspec})).state?.damage?.problem).toBe("missing");

    const rebuilt = await rebuildState(store, BLOCKS, {chainspec, genesis: regtestGenesis});
    expect(rebuilt).toEqual({rebuiltThrough: BLOCKS});
    expect((await verifyStateAt(store, chainspec, BLOCKS)).damage).toBeUndefined();
  });

  it("finds a lost body at its block; the rewind keeps the blocks below and forgets the ones above", async () => {
    const store = await chainOfTransfers();
    const hash5 = (await store.get(Bucket.canonicalHash, numberKey(5))) as Uint8Array;
    await store.write(new WriteBatch().del(Bucket.body, hash5));
    const found = await verifyChain(store, {chainspec});
    expect(found.damage).toMatchObject({number: 5, problem: "its body is missing"});
    expect(found.wholeThrough).toBe(4);

    const rewind = await rewindChain(store, 4);
    expect(rewind.head.number).toBe(4);
    expect(rewind.removedBlocks).toBe(BLOCKS - 4);
    expect(await store.get(Bucket.canonicalHash, numberKey(5))).toBeUndefined();
    expect(await store.get(Bucket.header, hash5)).toBeUndefined();
    const after = await verifyChain(store, {chainspec});
    expect(after.damage).toBeUndefined();
    expect(after.head?.number).toBe(4);
    // The chain opens on the rewound store, its head block 4.
    const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
    expect(chain.head().number).toBe(4);
  });

  it("finds receipts that do not decode at their block (a value LevelDB's repair gave back cut short)", async () => {
    const store = await chainOfTransfers();
    const hash6 = (await store.get(Bucket.canonicalHash, numberKey(6))) as Uint8Array;
    const receipts = (await store.get(Bucket.receipts, hash6)) as Uint8Array;
    await store.write(new WriteBatch().put(Bucket.receipts, hash6, receipts.subarray(0, receipts.length - 5)));
    const found = await verifyChain(store, {chainspec});
    expect(found.damage).toMatchObject({number: 6, problem: expect.stringMatching(/^its receipts do not decode: /)});
    expect(found.wholeThrough).toBe(5);
  });

  it("writes a lost genesis and head pointer again, and refuses another chain's store", async () => {
    const store = await chainOfTransfers();
    const genesisHash = (await store.get(Bucket.canonicalHash, numberKey(0))) as Uint8Array;
    await store.write(
      new WriteBatch().del(Bucket.header, genesisHash).del(Bucket.meta, new TextEncoder().encode("head")),
    );
    expect((await verifyChain(store, {chainspec})).damage).toBeDefined();
    expect(await restoreGenesis(store, {chainspec, genesis: regtestGenesis})).toEqual({headRestoredAt: BLOCKS});
    expect((await verifyChain(store, {chainspec})).damage).toBeUndefined();

    const other = {...regtestGenesis, header: {...regtestGenesis.header, extraData: Uint8Array.of(1)}};
    await expect(restoreGenesis(store, {chainspec, genesis: other})).rejects.toThrow(/holds the chain of genesis/);
  });
});

describe("a chain whose head's state a dev control edited", () => {
  const STRANGER = Uint8Array.from({length: 20}, (_, i) => 0x50 + i);

  async function editedChain(): Promise<{store: MemoryStore; editedRoot: Uint8Array}> {
    const store = await chainOfTransfers();
    const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
    await chain.editHeadState((state) => state.setBalance(STRANGER, 1234n));
    return {store, editedRoot: chain.stateRootAfter(chain.head().header)};
  }

  it("verifies the edited state; a rebuild cannot recreate a lost edit and the head reads its own state again", async () => {
    const {store, editedRoot} = await editedChain();
    expect((await verifyChain(store, {chainspec})).state?.damage).toBeUndefined();
    // Only the edit wrote this node: the edited state is damaged, the header's state is whole.
    await store.write(new WriteBatch().del(Bucket.stateTrie, editedRoot));
    expect((await verifyStateAt(store, chainspec, BLOCKS)).damage?.problem).toBe("missing");

    expect(await rebuildState(store, BLOCKS, {chainspec, genesis: regtestGenesis})).toEqual({
      rebuiltThrough: BLOCKS,
      editDropped: true,
    });
    expect((await verifyStateAt(store, chainspec, BLOCKS)).damage).toBeUndefined();
    const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis: regtestGenesis});
    expect(chain.stateRootAfter(chain.head().header)).toEqual(chain.head().header.stateRoot);
    expect(await (await chain.stateAt(chain.head().hash)).getBalance(STRANGER)).toBe(0n);
  });

  it("the rewind forgets the edit of a block it forgets", async () => {
    const {store} = await editedChain();
    await rewindChain(store, BLOCKS - 1);
    let records = 0;
    for await (const _ of store.entries(Bucket.stateOverride)) records++;
    expect(records).toBe(0);
  });
});
