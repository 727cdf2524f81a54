import {Bucket} from "@xchain/db";
import {hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {buildGenesisState, defaultStateOptions, type GenesisAccount, StateDatabase, verifyState} from "../src/index.ts";
import {addressOf, closeStore, common, openStore, persist, slotOf} from "./helpers.ts";

describe("verifyState", () => {
  it("counts the bytes of every node and code of the state: all a lone commit stored", async () => {
    const store = await openStore();
    try {
      const state = new StateDatabase(defaultStateOptions, {store});
      // 40 accounts, every tenth a contract with code and a slot of its own.
      const alloc = Array.from({length: 40}, (_, i): [Uint8Array, GenesisAccount] => [
        addressOf(i + 1),
        i % 10 === 0
          ? {
              balance: 1n,
              code: hexToBytes(`60${(i + 1).toString(16).padStart(2, "0")}600055`),
              storage: [[slotOf(i), hexToBytes("2a")]],
            }
          : {balance: BigInt(i)},
      ]);
      const commit = await buildGenesisState(state, alloc, common);
      await persist(store, commit);
      let stored = 0;
      for await (const [, value] of store.entries(Bucket.stateTrie)) stored += value.length;
      const result = await verifyState(store, commit.root);
      expect(result.damage).toBeUndefined();
      expect(result.codes).toBe(4);
      expect(result.bytes).toBe(stored);
    } finally {
      await closeStore(store);
    }
  });
});
