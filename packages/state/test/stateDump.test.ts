/** The state listed by address and slot from recorded preimages (`StateDatabase.dump`, docs/rpc.md §4.10). */
import {Address} from "@ethereumjs/util";
import {Bucket} from "@xchain/db";
import {compareBytes, equalBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {defaultStateOptions, EMPTY_TRIE_ROOT, StateDatabase, StateErrorCode} from "../src/index.ts";
import {addressOf, common, openStore, persist, setAccount, slotOf} from "./helpers.ts";

const CODE = Uint8Array.of(0x60, 0x00, 0x60, 0x00, 0xf3);

/** One committed and persisted block: accounts 0..count-1, account 0 with code and slots 1..slots. */
async function writeState(state: StateDatabase, store: Parameters<typeof persist>[0], count: number, slots = 3) {
  const session = await state.openSession(EMPTY_TRIE_ROOT, common);
  const sm = session.stateManager;
  for (let i = 0; i < count; i++) await setAccount(sm, addressOf(i), 1_000n + BigInt(i), BigInt(i));
  await sm.putCode(new Address(addressOf(0)), CODE);
  for (let s = 1; s <= slots; s++) await sm.putStorage(new Address(addressOf(0)), slotOf(s), Uint8Array.of(s, 0));
  const commit = await session.commit();
  await persist(store, commit);
  return commit;
}

describe("StateDatabase.dump", () => {
  it("lists every account, its code and slots by address when preimages are recorded", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, recordPreimages: true}, {store});
    const {root, writes} = await writeState(state, store, 40);
    expect(writes.filter((op) => op.key[0] === Bucket.preimage)).toHaveLength(40 + 3);

    const dump = await state.dump(root, {maxBytes: 1_000_000});
    expect(dump).toMatchObject({unnamedAccounts: 0, unnamedSlots: 0});
    expect(dump.accounts).toHaveLength(40);
    const sorted = [...dump.accounts].sort((a, b) => compareBytes(a.address, b.address));
    expect(dump.accounts).toEqual(sorted);
    const first = dump.accounts.find((a) => equalBytes(a.address, addressOf(0)));
    expect(first).toMatchObject({nonce: 0n, balance: 1_000n, code: CODE});
    expect(first?.storage.map(([slot, value]) => [slot[31], value[30], value[31]])).toEqual([
      [1, 1, 0],
      [2, 2, 0],
      [3, 3, 0],
    ]);
    const last = dump.accounts.find((a) => equalBytes(a.address, addressOf(39)));
    expect(last).toMatchObject({nonce: 39n, balance: 1_039n, code: new Uint8Array(0), storage: []});
  });

  it("counts what it cannot name where no preimage was recorded, and adds no write without the option", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const {root, writes} = await writeState(state, store, 5);
    expect(writes.every((op) => op.key[0] === Bucket.stateTrie)).toBe(true);
    expect(await state.dump(root, {maxBytes: 1_000_000})).toEqual({accounts: [], unnamedAccounts: 5, unnamedSlots: 0});
  });

  it("refuses a dump past its size limit, with the limit in the error", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, recordPreimages: true}, {store});
    const {root} = await writeState(state, store, 100);
    await expect(state.dump(root, {maxBytes: 5_000})).rejects.toMatchObject({
      code: StateErrorCode.DUMP_TOO_LARGE,
      message: expect.stringMatching(/passes its limit of 5000 bytes of JSON after \d+ accounts/),
    });
  });

  it("refuses a root that is not stored", async () => {
    const store = await openStore();
    const state = new StateDatabase({...defaultStateOptions, recordPreimages: true}, {store});
    await expect(state.dump(new Uint8Array(32).fill(7), {maxBytes: 1_000})).rejects.toMatchObject({
      code: StateErrorCode.ROOT_MISSING,
    });
  });
});
