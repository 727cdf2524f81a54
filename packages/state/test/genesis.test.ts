import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, bytesToPrefixedHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  buildGenesisState,
  defaultStateOptions,
  type GenesisAccount,
  StateDatabase,
  StateErrorCode,
} from "../src/index.ts";
import {addressOf, common, dumpStateBucket, openStore, persist, slotOf} from "./helpers.ts";

interface RegtestAccounts {
  accounts: {seed: string; address: string; balanceWei: string | null}[];
}

/** The 10 pre-funded "cow" accounts of regtest (docs/protocol/networks.md §3). */
function cowAlloc(): [Uint8Array, GenesisAccount][] {
  const {accounts} = readJsonVector<RegtestAccounts>("regtest-accounts.json");
  return accounts
    .filter((a) => a.balanceWei !== null)
    .map((a) => [hexToBytes(a.address), {balance: BigInt(a.balanceWei as string)}]);
}

// Regression value (equal to a plain in-memory @ethereumjs/statemanager build of the same alloc):
// the MPT root of the 10 cow accounts, not rskj's Unitrie root (docs/protocol/README.md §2).
const COW_ROOT = "0x24ae531f759fd57823d126fc9a54e56492de997dd59e50f3ab84d2fde915e25e";

describe("buildGenesisState", () => {
  it("gives the same root and writes from two builds and any allocation order", async () => {
    const alloc = cowAlloc();
    expect(alloc).toHaveLength(10);
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const a = await buildGenesisState(state, alloc, common);
    const b = await buildGenesisState(
      new StateDatabase(defaultStateOptions, {store: await openStore()}),
      [...alloc].reverse(),
      common,
    );
    expect(bytesToPrefixedHex(a.root)).toBe(COW_ROOT);
    expect(b.root).toEqual(a.root);
    expect(b.writes).toEqual(a.writes);
  });

  it("stores balances, nonce, code and non-zero storage", async () => {
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const code = hexToBytes("6001600055");
    const genesis = await buildGenesisState(
      state,
      [
        [addressOf(1), {balance: 5n, nonce: 2n}],
        [
          addressOf(2),
          {
            balance: 0n,
            code,
            storage: [
              [slotOf(1), hexToBytes("2a")],
              [slotOf(2), new Uint8Array(32)],
            ],
          },
        ],
      ],
      common,
    );
    expect(await dumpStateBucket(store)).toEqual([]);
    await persist(store, genesis);
    const reader = await state.reader(genesis.root, common);
    expect(await reader.getBalance(addressOf(1))).toBe(5n);
    expect(await reader.getNonce(addressOf(1))).toBe(2n);
    expect(await reader.getCode(addressOf(2))).toEqual(code);
    expect(bytesToHex(await reader.getStorage(addressOf(2), slotOf(1)))).toBe(`${"00".repeat(31)}2a`);
    expect(await reader.getStorage(addressOf(2), slotOf(2))).toEqual(new Uint8Array(32));
  });

  it("keeps every account of an allocation larger than the session's caches", async () => {
    // More accounts, accounts with storage and codes than LONG_LIVED_CACHES holds: a write the LRU
    // dropped before the commit was lost, and with it the first accounts of the allocation.
    const store = await openStore();
    const state = new StateDatabase(defaultStateOptions, {store});
    const accounts = 100_001;
    const alloc: [Uint8Array, GenesisAccount][] = [];
    for (let i = 0; i < accounts; i++) {
      const genesis: GenesisAccount = {balance: BigInt(i + 1)};
      if (i <= 50_000) genesis.storage = [[slotOf(1), hexToBytes("2a")]];
      if (i <= 5_000)
        genesis.code = hexToBytes(
          `60${(i % 256).toString(16).padStart(2, "0")}600055${i.toString(16).padStart(8, "0")}`,
        );
      alloc.push([addressOf(i), genesis]);
    }
    const genesis = await buildGenesisState(state, alloc, common);
    await persist(store, genesis);
    const reader = await state.reader(genesis.root, common);
    for (const i of [0, 1, 4_999, 5_000, 50_000, accounts - 1]) {
      expect(await reader.getBalance(addressOf(i))).toBe(BigInt(i + 1));
    }
    for (const i of [0, 50_000]) {
      expect(bytesToHex(await reader.getStorage(addressOf(i), slotOf(1)))).toBe(`${"00".repeat(31)}2a`);
    }
    for (const i of [0, 5_000]) expect(await reader.getCode(addressOf(i))).toEqual(alloc[i]?.[1].code);
  }, 120_000);

  it("rejects an address allocated twice", async () => {
    const state = new StateDatabase(defaultStateOptions, {store: await openStore()});
    const alloc: [Uint8Array, GenesisAccount][] = [
      [addressOf(1), {balance: 1n}],
      [addressOf(1), {balance: 2n}],
    ];
    await expect(buildGenesisState(state, alloc, common)).rejects.toMatchObject({
      code: StateErrorCode.DUPLICATE_GENESIS_ACCOUNT,
    });
  });
});
