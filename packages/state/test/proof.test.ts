/** StateReader.accountProof and storageProof (docs/protocol/proofs.md §1) against @ethereumjs/mpt's verifier. */
import {verifyMerkleProof} from "@ethereumjs/mpt";
import {RLP} from "@ethereumjs/rlp";
import {Address} from "@ethereumjs/util";
import {keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase} from "../src/index.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

describe("StateReader proofs", () => {
  it("proves present and absent accounts and slots", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const session = await state.openSession(EMPTY_TRIE_ROOT, common);
    const sm = session.stateManager;
    await sm.checkpoint();
    for (let n = 1; n <= 20; n++) await setAccount(sm, addressOf(n), BigInt(n * 1000));
    await sm.putStorage(new Address(addressOf(1)), slotOf(3), Uint8Array.of(7));
    await sm.commit();
    const commit = await session.commit();
    await persist(store, commit);
    const reader = await state.reader(commit.root, common);

    const accountValue = await verifyMerkleProof(keccak256(addressOf(1)), await reader.accountProof(addressOf(1)), {
      root: commit.root,
    });
    const [, balance, storageRoot] = RLP.decode(accountValue as Uint8Array) as Uint8Array[];
    expect(balance).toEqual(Uint8Array.of(0x03, 0xe8));
    expect(storageRoot).toEqual((await reader.getAccount(addressOf(1)))?.storageRoot);

    const absent = await reader.accountProof(addressOf(99));
    expect(absent.length).toBeGreaterThan(0);
    expect(await verifyMerkleProof(keccak256(addressOf(99)), absent, {root: commit.root})).toBeNull();

    const root = storageRoot as Uint8Array;
    const slot = await verifyMerkleProof(keccak256(slotOf(3)), await reader.storageProof(addressOf(1), slotOf(3)), {
      root,
    });
    expect(RLP.decode(slot as Uint8Array)).toEqual(Uint8Array.of(7));
    const unset = await reader.storageProof(addressOf(1), slotOf(4));
    expect(await verifyMerkleProof(keccak256(slotOf(4)), unset, {root})).toBeNull();

    // No storage (or no account): nothing to prove against the empty root.
    expect(await reader.storageProof(addressOf(2), slotOf(3))).toEqual([]);
    expect(await reader.storageProof(addressOf(99), slotOf(3))).toEqual([]);
  });
});
