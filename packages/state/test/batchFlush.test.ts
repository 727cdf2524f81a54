import {createMPT} from "@ethereumjs/mpt";
import {Caches, CacheType, MerkleStateManager} from "@ethereumjs/statemanager";
import {Address, MapDB, ValueEncoding} from "@ethereumjs/util";
import {bytesToHex} from "@xchain/utils";
import fc from "fast-check";
import {describe, expect, it} from "vitest";
import {BatchFlushStateManager} from "../src/batchStateManager.ts";
import {applyTrieWrites, type TrieWrite} from "../src/batchTrie.ts";
import {addressOf, common, slotOf} from "./helpers.ts";
import {trieKeys} from "./trieArbitraries.ts";

/** Writes and deletes; short values make short nodes, which the trie inlines. */
function writeSets(length: number) {
  const write = fc
    .tuple(trieKeys(length), fc.option(fc.uint8Array({minLength: 1, maxLength: 40}), {freq: 3}))
    .map(([key, value]): TrieWrite => [key, value ?? undefined]);
  return fc.tuple(fc.array(write, {maxLength: 30}), fc.array(write, {maxLength: 30}));
}

/** The same trie on its own database: `seed` written through the MPT. */
async function seededTrie(seed: TrieWrite[]) {
  const trie = await createMPT({db: new MapDB<string, Uint8Array>(), valueEncoding: ValueEncoding.Bytes});
  for (const [key, value] of seed) await (value ? trie.put(key, value) : trie.del(key));
  return trie;
}

describe("applyTrieWrites", () => {
  for (const length of [2, 32]) {
    it(`gives the MPT's root and a readable trie for random writes to ${length}-byte keys`, async () => {
      await fc.assert(
        fc.asyncProperty(writeSets(length), async ([seed, writes]) => {
          const reference = await seededTrie(seed);
          const batched = await seededTrie(seed);
          for (const [key, value] of writes) await (value ? reference.put(key, value) : reference.del(key));
          const root = await applyTrieWrites(batched.database(), batched.root(), writes);
          expect(bytesToHex(root)).toBe(bytesToHex(reference.root()));
          // Only the batch's own writes and the seed are in this database: every key must read back.
          batched.root(root);
          const expected = new Map<string, Uint8Array | undefined>();
          for (const [key, value] of [...seed, ...writes]) expected.set(bytesToHex(key), value ?? undefined);
          for (const [key, value] of expected) {
            const read = await batched.get(Buffer.from(key, "hex"));
            expect(read === null ? undefined : bytesToHex(read)).toBe(value && bytesToHex(value));
          }
        }),
        {seed: 15, numRuns: 300},
      );
    });
  }
});

type Op =
  | {kind: "balance"; account: number; balance: bigint}
  | {kind: "delete"; account: number}
  | {kind: "storage"; account: number; slot: number; value: number}
  | {kind: "code"; account: number; code: Uint8Array}
  | {kind: "clear"; account: number}
  | {kind: "read"; account: number; slot: number};

const account = fc.integer({min: 0, max: 12});
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({kind: fc.constant("balance" as const), account, balance: fc.bigInt({min: 0n, max: 1000n})}),
  fc.record({kind: fc.constant("delete" as const), account}),
  fc.record({
    kind: fc.constant("storage" as const),
    account,
    slot: fc.integer({min: 0, max: 20}),
    value: fc.oneof(fc.constant(0), fc.integer({min: 0, max: 1 << 30})),
  }),
  fc.record({kind: fc.constant("code" as const), account, code: fc.uint8Array({minLength: 1, maxLength: 50})}),
  fc.record({kind: fc.constant("clear" as const), account}),
  fc.record({kind: fc.constant("read" as const), account, slot: fc.integer({min: 0, max: 20})}),
);

/** A transaction: its changes inside a checkpoint, kept or reverted. */
const transaction = fc.record({ops: fc.array(op, {maxLength: 8}), reverted: fc.boolean()});

async function stateManager(Kind: typeof MerkleStateManager): Promise<MerkleStateManager> {
  const trie = await createMPT({
    db: new MapDB<string, Uint8Array>(),
    useKeyHashing: true,
    valueEncoding: ValueEncoding.Bytes,
    common,
  });
  const caches = new Caches({
    account: {type: CacheType.LRU, size: 1000},
    storage: {type: CacheType.LRU, size: 1000},
    code: {type: CacheType.LRU, size: 100},
  });
  return new Kind({trie, common, caches});
}

async function apply(sm: MerkleStateManager, o: Exclude<Op, {kind: "read"}>): Promise<void> {
  const address = new Address(addressOf(o.account));
  if (o.kind === "balance") return sm.modifyAccountFields(address, {balance: o.balance});
  if (o.kind === "delete") return sm.deleteAccount(address);
  if (o.kind === "clear") return sm.clearStorage(address);
  if ((await sm.getAccount(address)) === undefined) await sm.modifyAccountFields(address, {nonce: 1n});
  if (o.kind === "code") return sm.putCode(address, o.code);
  const value = new Uint8Array(32);
  new DataView(value.buffer).setUint32(28, o.value);
  return sm.putStorage(address, slotOf(o.slot), value);
}

describe("BatchFlushStateManager", () => {
  it("gives the stock state manager's roots and reads over blocks of random account, storage and code changes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(transaction, {maxLength: 6}), {minLength: 1, maxLength: 5}),
        async (blocks) => {
          const stock = await stateManager(MerkleStateManager);
          const batched = await stateManager(BatchFlushStateManager);
          for (const block of blocks) {
            const reads: string[][] = [[], []];
            for (const [i, sm] of [stock, batched].entries()) {
              await sm.checkpoint();
              for (const tx of block) {
                await sm.checkpoint();
                for (const o of tx.ops) {
                  if (o.kind !== "read") await apply(sm, o);
                  else
                    reads[i]?.push(bytesToHex(await sm.getStorage(new Address(addressOf(o.account)), slotOf(o.slot))));
                }
                await (tx.reverted ? sm.revert() : sm.commit());
              }
              await sm.commit();
            }
            expect(reads[1]).toEqual(reads[0]);
            expect(bytesToHex(await batched.getStateRoot())).toBe(bytesToHex(await stock.getStateRoot()));
            for (let i = 0; i <= 12; i++) {
              const address = new Address(addressOf(i));
              expect((await batched.getAccount(address))?.serialize()).toEqual(
                (await stock.getAccount(address))?.serialize(),
              );
            }
          }
        },
      ),
      {seed: 15, numRuns: 100},
    );
  });
});
