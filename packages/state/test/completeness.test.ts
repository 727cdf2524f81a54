import {createMPT} from "@ethereumjs/mpt";
import {Caches, MerkleStateManager} from "@ethereumjs/statemanager";
import {Address, createAccountFromRLP, KECCAK256_NULL, KECCAK256_RLP, ValueEncoding} from "@ethereumjs/util";
import type {LevelStore} from "@xchain/db";
import {WriteBatch} from "@xchain/db";
import {describe, expect, it} from "vitest";
import {
  defaultStateOptions,
  EMPTY_TRIE_ROOT,
  type StateCommit,
  StateDatabase,
  StateErrorCode,
  type StateSession,
} from "../src/index.ts";
import {NodeCache} from "../src/nodeCache.ts";
import {TrieNodeStore} from "../src/nodeStore.ts";
import {ReadOnlyTrieDB} from "../src/readOnlyDb.ts";
import {addressOf, closeStore, common, openStore, persist} from "./helpers.ts";
import {prng, randomOp, runBlock} from "./randomOps.ts";

/** Walks the whole state at `root` (account trie, every storage trie, every code) from the store alone. */
async function walkState(store: LevelStore, root: Uint8Array): Promise<number> {
  const db = new ReadOnlyTrieDB(new TrieNodeStore(store, new NodeCache(0)));
  const open = (r: Uint8Array) =>
    createMPT({db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, root: r});
  let nodes = 0;
  const accounts: Uint8Array[] = [];
  await (await open(root)).walkAllValueNodes(async (node) => {
    accounts.push(node.value() as Uint8Array);
  });
  await (await open(root)).walkAllNodes(async () => {
    nodes++;
  });
  for (const rlp of accounts) {
    const account = createAccountFromRLP(rlp);
    if (!equal(account.storageRoot, KECCAK256_RLP)) {
      await (await open(account.storageRoot)).walkAllNodes(async () => {
        nodes++;
      });
    }
    if (!equal(account.codeHash, KECCAK256_NULL)) {
      const code = await db.get(`63${Buffer.from(account.codeHash).toString("hex")}`);
      expect(code, "contract code").toBeDefined();
    }
  }
  return nodes;
}

const equal = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe("persisted writes", () => {
  it("hold every node of every root, and give the roots of a plain in-memory state manager", async () => {
    let store = await openStore();
    const path = store.path;
    const state = new StateDatabase(defaultStateOptions, {store});
    const reference = new MerkleStateManager({common, caches: new Caches()});
    const random = prng(7);
    const roots: Uint8Array[] = [];
    let root = EMPTY_TRIE_ROOT;
    let continued: StateSession | undefined;
    let unpersisted: StateCommit | undefined;

    for (let block = 1; block <= 12; block++) {
      const ops = Array.from({length: 30}, () => randomOp(random, block));
      const reverted = Array.from({length: 5}, () => randomOp(random, block));
      // Every third block continues the previous session before its writes are persisted.
      const session = continued ?? (await state.openSession(root, common));
      await runBlock(session.stateManager, ops, reverted);
      await runBlock(reference, ops, reverted);
      const commit = await session.commit();
      expect(commit.root).toEqual(await reference.getStateRoot());
      if (block % 3 === 1) {
        continued = session;
        unpersisted = commit;
      } else {
        if (unpersisted) await persist(store, unpersisted);
        await persist(store, commit);
        continued = undefined;
        unpersisted = undefined;
      }
      root = commit.root;
      roots.push(root);
    }

    await closeStore(store);
    store = await openStore(path);
    for (const r of roots) expect(await walkState(store, r)).toBeGreaterThan(0);
  });

  it("are what the walk needs: one write left out makes the state unreadable", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    for (let i = 0; i < 20; i++) await session.stateManager.modifyAccountFields(new Address(addressOf(i)), {nonce: 1n});
    const {root, writes} = await session.commit();
    await store.write(new WriteBatch().append(writes.slice(0, -1)));
    await expect(walkState(store, root)).rejects.toMatchObject({code: StateErrorCode.NODE_MISSING});
    // A fresh database: this one's node cache still holds what the session produced.
    const reader = await new StateDatabase(defaultStateOptions, {store}).reader(root, common);
    const reads = Promise.all(Array.from({length: 20}, (_, i) => reader.getNonce(addressOf(i))));
    await expect(reads).rejects.toMatchObject({code: StateErrorCode.NODE_MISSING});
  });
});
