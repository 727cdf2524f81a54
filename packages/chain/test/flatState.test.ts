/**
 * The chain keeps the flat state of its head (docs/operations.md §13) across imports, a
 * reorganization, dev edits and `setHead`, in the batches that move the head; a crash after any batch
 * leaves it exact for the root it names or unused, and the next open completes it again.
 */
import {regtestGenesis} from "@xchain/chainspec";
import {Bucket, type KeyValueStore, MemoryStore, type WriteBatch} from "@xchain/db";
import {encodeRlp} from "@xchain/primitives";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {bigIntToFixedBytes, bytesToHex, keccak256} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {Chain, defaultChainOptions, ImportResultKind} from "../src/index.ts";
import {cleanup, cows, newBuilder, regtest, signTx} from "./helpers.ts";
import {cowTx, setSlotData, slotsContract} from "./prune/pruneHelpers.ts";

afterEach(cleanup);

const STRANGER = Uint8Array.from({length: 20}, (_, i) => 0xb0 + i);

/**
 * A store whose writes fail from the `after`-th batch on: what a crash after that many batches leaves
 * (a LevelDB batch is written whole or not at all); `inner` is that store after the restart.
 */
class CrashingStore implements KeyValueStore {
  readonly inner = new MemoryStore();
  writes = 0;
  constructor(private readonly after: number) {}
  get: KeyValueStore["get"] = (bucket, key) => this.inner.get(bucket, key);
  getMany: KeyValueStore["getMany"] = (bucket, keys) => this.inner.getMany(bucket, keys);
  entries: KeyValueStore["entries"] = (bucket, range) => this.inner.entries(bucket, range);
  async write(batch: WriteBatch): Promise<void> {
    if (this.writes >= this.after) throw new Error("crashed");
    this.writes++;
    await this.inner.write(batch);
  }
}

function openOn(store: KeyValueStore): Promise<Chain> {
  const state = new StateDatabase({...defaultStateOptions, nodeCacheBytes: 0}, {store});
  return Chain.open(defaultChainOptions, {chainspec: regtest, genesis: regtestGenesis, store, state});
}

/** The flat state is complete at the head's state root and equal to its trie. */
async function expectExactAtHead(chain: Chain, store: KeyValueStore): Promise<void> {
  await chain.flatStateIdle();
  const status = chain.flatStateStatus();
  expect(status?.phase).toBe("complete");
  expect(status?.root).toBe(bytesToHex(chain.stateRootAfter(chain.head().header)));
  const verification = await new StateDatabase(defaultStateOptions, {store}).verifyFlatState();
  expect(verification.mismatches).toEqual([]);
  expect(verification.phase).toBe("complete");
}

/** The chain's blocks: a contract writing slots, transfers to new accounts, a side branch that overtakes. */
async function scenario() {
  const builder = await newBuilder();
  const deploy = cowTx(0n, undefined, slotsContract().bytecode);
  const b1 = await builder.buildBlock({transactions: [deploy]});
  // The contract's address: keccak256(rlp([sender, nonce 0]))[12:].
  const address = keccak256(encodeRlp([cows[0]!.address, new Uint8Array(0)])).slice(12);
  const sets = (nonce: bigint, slots: [bigint, bigint][]) =>
    slots.map(([slot, value], i) => cowTx(nonce + BigInt(i), address, setSlotData(slot, value)));
  const b2 = await builder.buildBlock({
    parent: b1,
    transactions: [
      ...sets(1n, [
        [1n, 11n],
        [2n, 22n],
        [3n, 33n],
      ]),
      signTx(cows[1]!, {nonce: 0n, to: STRANGER, value: 5n}),
    ],
  });
  const b3 = await builder.buildBlock({
    parent: b2,
    transactions: sets(4n, [
      [1n, 0n],
      [4n, 44n],
    ]),
  });
  // The side branch from b2: clears slot 2, writes others, and is longer.
  const s3 = await builder.buildBlock({
    parent: b2,
    transactions: sets(4n, [
      [2n, 0n],
      [5n, 55n],
    ]),
    extraData: Uint8Array.of(1),
  });
  const s4 = await builder.buildBlock({
    parent: s3,
    transactions: [signTx(cows[2]!, {nonce: 0n, to: STRANGER, value: 7n})],
  });
  return {blocks: [b1, b2, b3, s3, s4], address};
}

describe("the chain's flat state", () => {
  it("follows imports, a reorganization, dev edits and setHead", async () => {
    const store = new MemoryStore();
    const chain = await openOn(store);
    await expectExactAtHead(chain, store);
    const {blocks, address} = await scenario();
    const [b1, b2, b3, s3, s4] = blocks;
    for (const block of [b1, b2, b3]) {
      expect((await chain.importBlock(block!)).kind).toBe(ImportResultKind.IMPORTED_BEST);
      await expectExactAtHead(chain, store);
    }
    expect((await chain.importBlock(s3!)).kind).toBe(ImportResultKind.IMPORTED_NOT_BEST);
    expect((await chain.importBlock(s4!)).kind).toBe(ImportResultKind.IMPORTED_BEST);
    await expectExactAtHead(chain, store);
    await chain.editHeadState(async (state) => {
      await state.setBalance(STRANGER, 10n ** 20n);
      await state.setStorage(address, bigIntToFixedBytes(9n, 32), bigIntToFixedBytes(99n, 32));
      await state.setStorage(address, bigIntToFixedBytes(1n, 32), new Uint8Array(32));
    });
    await expectExactAtHead(chain, store);
    await chain.setHead(b1!.hash());
    await expectExactAtHead(chain, store);
    const status = chain.flatStateStatus();
    // Every head change was followed by a diff; the one generation was the genesis' at open.
    expect(status?.restarts).toBe(1);
    expect(status?.followed).toBeGreaterThanOrEqual(6);
    // The head's reads come from it.
    const reader = await chain.stateAfter(chain.head().header);
    expect(await reader.getBalance(cows[0]!.address)).toBeGreaterThan(0n);
  });

  it("after a crash at any batch, is exact for the root it names or unused, and complete after the restart", async () => {
    const {blocks} = await scenario();
    // How many batches the whole run writes.
    const probe = new CrashingStore(Number.POSITIVE_INFINITY);
    await run(probe, blocks);
    for (let after = 1; after < probe.writes; after++) {
      const crashing = new CrashingStore(after);
      await run(crashing, blocks).catch(() => undefined);
      const store = crashing.inner;
      // Exact or unused: a verification of what the crash left finds nothing wrong.
      const left = await new StateDatabase(defaultStateOptions, {store}).verifyFlatState();
      expect(left.mismatches, `crash after ${after} batches`).toEqual([]);
      const chain = await openOn(store);
      await expectExactAtHead(chain, store);
      await chain.stopFlatState();
    }
  });
});

async function run(store: KeyValueStore, blocks: readonly {hash(): Uint8Array}[]): Promise<void> {
  const chain = await openOn(store);
  try {
    for (const block of blocks) {
      await chain.importBlock(block as Parameters<Chain["importBlock"]>[0]);
      await chain.flatStateIdle();
    }
    await chain.editHeadState((state) => state.setBalance(STRANGER, 3n));
    await chain.setHead((blocks[0] as {hash(): Uint8Array}).hash());
    await chain.flatStateIdle();
  } finally {
    await chain.stopFlatState();
  }
  if (await hasFlatMeta(store)) return;
  throw new Error("no flat state was written");
}

async function hasFlatMeta(store: KeyValueStore): Promise<boolean> {
  return (await store.get(Bucket.flatState, new Uint8Array(0))) !== undefined;
}
