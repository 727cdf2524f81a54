/** The fork's proof checks (docs/forking.md §1.4) against proofs of a real state trie, as xchain's eth_getProof builds them. */

import {Address} from "@ethereumjs/util";
import {toData, toQuantity} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {AnswerError} from "../../src/fork/answers.ts";
import {ProofMismatch, verifiedAccount, verifiedSlot} from "../../src/fork/proofs.ts";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, type StateReader} from "../../src/index.ts";
import {EMPTY_CODE_HASH} from "../../src/trie.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "../helpers.ts";

/** A state with account 1 (balance 1000, nonce 5, slot 3 = 7) and account 2 (balance `balance2`, no storage). */
async function state(balance2 = 2000n): Promise<{root: Uint8Array; reader: StateReader}> {
  const store = await openStore();
  const db = new StateDatabase(defaultStateOptions, {store});
  const session = await db.openSession(EMPTY_TRIE_ROOT, common);
  const sm = session.stateManager;
  await sm.checkpoint();
  await setAccount(sm, addressOf(1), 1000n, 5n);
  await setAccount(sm, addressOf(2), balance2);
  await sm.putStorage(new Address(addressOf(1)), slotOf(3), Uint8Array.of(7));
  await sm.commit();
  const commit = await session.commit();
  await persist(store, commit);
  return {root: commit.root, reader: await db.reader(commit.root, common)};
}

/** An eth_getProof answer as docs/protocol/proofs.md §1 describes it. */
async function answer(reader: StateReader, address: Uint8Array, slots: Uint8Array[] = []) {
  const account = await reader.getAccount(address);
  return {
    address: toData(address),
    accountProof: (await reader.accountProof(address)).map(toData),
    balance: toQuantity(account?.balance ?? 0n),
    nonce: toQuantity(account?.nonce ?? 0n),
    codeHash: toData(account?.codeHash ?? EMPTY_CODE_HASH),
    storageHash: toData(account?.storageRoot ?? EMPTY_TRIE_ROOT),
    storageProof: await Promise.all(
      slots.map(async (slot) => ({
        key: toData(slot),
        value: toQuantity(BigInt(toData(await reader.getStorage(address, slot)).replace(/^0x$/, "0x0"))),
        proof: (await reader.storageProof(address, slot)).map(toData),
      })),
    ),
  };
}

describe("fork proofs", () => {
  it("accepts accounts, absent accounts and slots that verify", async () => {
    const {root, reader} = await state();
    const one = await verifiedAccount(root, addressOf(1), await answer(reader, addressOf(1)));
    expect([one.balance, one.nonce]).toEqual([1000n, 5n]);
    const absent = await verifiedAccount(root, addressOf(99), await answer(reader, addressOf(99)));
    expect([absent.balance, absent.nonce, absent.codeHash]).toEqual([0n, 0n, EMPTY_CODE_HASH]);

    const withSlot = await answer(reader, addressOf(1), [slotOf(3)]);
    const slot = await verifiedSlot(one.storageRoot as Uint8Array, slotOf(3), withSlot);
    expect(slot[31]).toBe(7);
    const unset = await verifiedSlot(
      one.storageRoot as Uint8Array,
      slotOf(4),
      await answer(reader, addressOf(1), [slotOf(4)]),
    );
    expect(unset).toEqual(new Uint8Array(32));
    const empty = await verifiedSlot(EMPTY_TRIE_ROOT, slotOf(3), await answer(reader, addressOf(2), [slotOf(3)]));
    expect(empty).toEqual(new Uint8Array(32));
  });

  it("refuses a changed balance, a changed slot value, an absent account said present, and another root", async () => {
    const {root, reader} = await state();
    const good = await answer(reader, addressOf(1), [slotOf(3)]);
    await expect(verifiedAccount(root, addressOf(1), {...good, balance: "0x3e9"})).rejects.toThrow(
      new ProofMismatch("the answer's balance is 1001 but the proof proves 1000"),
    );
    const entry = good.storageProof[0] as {key: string; value: string; proof: string[]};
    const account = await verifiedAccount(root, addressOf(1), good);
    await expect(
      verifiedSlot(account.storageRoot as Uint8Array, slotOf(3), {...good, storageProof: [{...entry, value: "0x8"}]}),
    ).rejects.toThrow(ProofMismatch);
    const absent = await answer(reader, addressOf(99));
    await expect(verifiedAccount(root, addressOf(99), {...absent, balance: "0x1"})).rejects.toThrow(ProofMismatch);
    // Account 2's proof offered for account 1: it does not lead to keccak256(account 1).
    const other = await answer(reader, addressOf(2));
    await expect(verifiedAccount(root, addressOf(1), {...other})).rejects.toThrow(ProofMismatch);
    await expect(verifiedAccount(EMPTY_TRIE_ROOT, addressOf(1), good)).rejects.toThrow(
      /the proof of the account does not lead from the root/,
    );
  });

  it("does not walk again an account proven before, and checks in full an answer that reports another", async () => {
    const {root, reader} = await state();
    const good = await answer(reader, addressOf(1), [slotOf(3)]);
    const proven = await verifiedAccount(root, addressOf(1), good);
    // The same account reported: the proven one, its proof not walked (these nodes prove nothing).
    const unwalked = {...good, accountProof: ["0x00"]};
    expect(await verifiedAccount(root, addressOf(1), unwalked, proven)).toBe(proven);
    // Anything else reported is checked against the root, whatever was proven before.
    await expect(verifiedAccount(root, addressOf(1), {...unwalked, balance: "0x3e9"}, proven)).rejects.toThrow(
      /does not lead from the root/,
    );
    await expect(verifiedAccount(root, addressOf(1), {...good, balance: "0x3e9"}, proven)).rejects.toThrow(
      new ProofMismatch("the answer's balance is 1001 but the proof proves 1000"),
    );
    const otherRoot = {...good, storageHash: toData(EMPTY_TRIE_ROOT)};
    await expect(verifiedAccount(root, addressOf(1), otherRoot, proven)).rejects.toThrow(
      /the answer's storageRoot is .* but the proof proves/,
    );
    // An account read without a proof (no storage root) is no proven account.
    const unproven = {...proven, storageRoot: undefined};
    await expect(verifiedAccount(root, addressOf(1), unwalked, unproven)).rejects.toThrow(ProofMismatch);
    // The slot is still checked against the proven storage root.
    const entry = good.storageProof[0] as {key: string; value: string; proof: string[]};
    const tampered = {...unwalked, storageProof: [{...entry, value: "0x8"}]};
    const account = await verifiedAccount(root, addressOf(1), tampered, proven);
    await expect(verifiedSlot(account.storageRoot as Uint8Array, slotOf(3), tampered)).rejects.toThrow(ProofMismatch);
  });

  it("checks a proof with the nodes earlier proofs of its root gave, never with a node no proof gave", async () => {
    // A root no other test proved anything of (the nodes kept are by root, for the whole process).
    const {root, reader} = await state(2001n);
    await verifiedAccount(root, addressOf(1), await answer(reader, addressOf(1)));
    // Account 2's leaf cut off its proof: no proof has given it yet, so the walk cannot reach it.
    const two = await answer(reader, addressOf(2));
    const cut = {...two, accountProof: two.accountProof.slice(0, -1)};
    await expect(verifiedAccount(root, addressOf(2), cut)).rejects.toThrow(/does not lead from the root/);
    expect((await verifiedAccount(root, addressOf(2), two)).balance).toBe(2001n);
    // Once a proof gave it, the leaf is reached again from the root through nodes stored by their hash: the
    // value is the trie's, and a tampered one is still refused.
    expect((await verifiedAccount(root, addressOf(2), cut)).balance).toBe(2001n);
    await expect(verifiedAccount(root, addressOf(2), {...cut, balance: "0x7d0"})).rejects.toThrow(ProofMismatch);
    // A first node that is not the root's is refused, whatever nodes are kept.
    const rootless = {...two, accountProof: two.accountProof.slice(1)};
    await expect(verifiedAccount(root, addressOf(2), rootless)).rejects.toThrow(/does not lead from the root/);
  });

  it("names a malformed answer", async () => {
    const {root, reader} = await state();
    const good = await answer(reader, addressOf(1));
    await expect(verifiedAccount(root, addressOf(1), {...good, accountProof: "0x00"})).rejects.toThrow(AnswerError);
    await expect(verifiedAccount(root, addressOf(1), {...good, nonce: 5})).rejects.toThrow(
      new AnswerError("the proof's nonce is not a quantity: 5"),
    );
  });
});
