// BLOCKHASH as a call worker answers it: by parent links through the stored headers, exact for the
// call's own chain whatever the canonical index says, before and after a reorganization.
import {getChainspec} from "@xchain/chainspec";
import {type Bucket, MemoryStore} from "@xchain/db";
import type {BlockHeader} from "@xchain/primitives";
import {describe, expect, it} from "vitest";
import {StoredAncestors} from "../../src/calls/storedAncestors.ts";
import {storeBranch} from "../support/headerChain.ts";

const chainspec = getChainspec("regtest");

/** A store that counts its reads. */
class CountingStore extends MemoryStore {
  reads = 0;
  override get(bucket: Bucket, key: Uint8Array): Promise<Uint8Array | undefined> {
    this.reads++;
    return super.get(bucket, key);
  }
}

/** The view of a call in the block after `parent`. */
const after = (ancestors: StoredAncestors, parent: BlockHeader) => ancestors.view(parent.number + 1, parent.hash());

describe("StoredAncestors", () => {
  it("answers the 256 ancestors before the block, nothing outside them", async () => {
    const store = new CountingStore();
    const chain = await storeBranch(store, chainspec, undefined, 300, 1);
    const head = chain[299] as BlockHeader;
    const view = after(new StoredAncestors(store), head);
    // The parent is carried by the call: no read.
    expect(await view.blockHash(299)).toEqual(head.hash());
    expect(store.reads).toBe(0);
    expect(await view.blockHash(44)).toEqual(chain[44]?.hash());
    expect(await view.blockHash(43)).toBeUndefined();
    expect(await view.blockHash(300)).toBeUndefined();
    expect(await view.blockHash(-1)).toBeUndefined();
    expect(await view.blockHash(200)).toEqual(chain[200]?.hash());
    expect(view.remasc).toBeUndefined();
  });

  it("answers near the genesis and stops at a block that is not stored", async () => {
    const store = new MemoryStore();
    const chain = await storeBranch(store, chainspec, undefined, 3, 1);
    const ancestors = new StoredAncestors(store);
    const view = after(ancestors, chain[2] as BlockHeader);
    expect(await view.blockHash(0)).toEqual(chain[0]?.hash());
    expect(await view.blockHash(1)).toEqual(chain[1]?.hash());
    // A parent that is not stored (the store lost it, or a made-up block) has no ancestors to give.
    const orphan = ancestors.view(9, new Uint8Array(32).fill(5));
    expect(await orphan.blockHash(8)).toEqual(new Uint8Array(32).fill(5));
    expect(await orphan.blockHash(7)).toBeUndefined();
  });

  it("gives each call its own chain's hashes across a reorganization, with the links read before it kept", async () => {
    const store = new CountingStore();
    const base = await storeBranch(store, chainspec, undefined, 6, 1);
    const fork = base[5] as BlockHeader;
    const a = await storeBranch(store, chainspec, fork, 4, 0xa);
    const ancestors = new StoredAncestors(store);
    const headA = a[3] as BlockHeader;
    expect(await after(ancestors, headA).blockHash(7)).toEqual(a[1]?.hash());
    expect(await after(ancestors, headA).blockHash(3)).toEqual(base[3]?.hash());

    // Branch B becomes canonical from height 6: the canonical index now names B's blocks.
    const b = await storeBranch(store, chainspec, fork, 4, 0xb);
    expect(b[1]?.hash()).not.toEqual(a[1]?.hash());
    const headB = b[3] as BlockHeader;
    const onB = after(ancestors, headB);
    expect(await onB.blockHash(7)).toEqual(b[1]?.hash());
    expect(await onB.blockHash(6)).toEqual(b[0]?.hash());
    expect(await onB.blockHash(5)).toEqual(fork.hash());
    // A call at A's head (by hash: no longer canonical) still sees A, without reading again.
    const reads = store.reads;
    const onA = after(ancestors, headA);
    expect(await onA.blockHash(7)).toEqual(a[1]?.hash());
    expect(await onA.blockHash(6)).toEqual(a[0]?.hash());
    expect(store.reads).toBe(reads);
  });
});
