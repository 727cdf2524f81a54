import {asBytes, decodeRlpList} from "@xchain/primitives";
import {readJsonVector} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {
  BRIDGE_ADDRESS,
  buildGenesisHeader,
  COW_ACCOUNT_BALANCE,
  getChainspec,
  getGenesisParams,
  networkNames,
} from "../src/index.ts";

interface GenesisVector {
  hash: string;
  headerRlpForHash: string;
}

interface RegtestAccounts {
  accounts: {seed: string; address: string; balanceWei: string}[];
}

describe("genesis", () => {
  const vectors = readJsonVector<Record<string, GenesisVector>>("genesis-blocks.json");

  for (const name of networkNames) {
    it(`${name}: with rskj's state root the header reproduces rskj's genesis bytes and hash`, () => {
      const vector = vectors[name]!;
      const rskjStateRoot = asBytes(decodeRlpList(hexToBytes(vector.headerRlpForHash), "header")[3], "stateRoot");
      const header = buildGenesisHeader(getGenesisParams(name).header, rskjStateRoot, getChainspec(name));
      expect(bytesToHex(header.encodeForHash())).toBe(vector.headerRlpForHash);
      expect(bytesToHex(header.hash())).toBe(vector.hash);
      expect(header.number).toBe(0);
      expect(header.ummRoot).toBeUndefined();
      expect(header.mergedMining).toEqual({
        bitcoinHeader: hexToBytes("00"),
        merkleProof: hexToBytes("00"),
        coinbase: hexToBytes("00"),
      });
    });

    it(`${name}: the Bridge holds 21,000,000 RBTC`, () => {
      const bridge = getGenesisParams(name).alloc.find((a) => bytesToHex(a.address) === bytesToHex(BRIDGE_ADDRESS));
      expect(bridge?.balance).toBe(21n * 10n ** 24n);
    });
  }

  it("regtest funds exactly the Bridge and the 10 cow accounts of regtest-accounts.json", () => {
    const cows = readJsonVector<RegtestAccounts>("regtest-accounts.json").accounts.filter((a) =>
      a.seed.startsWith("cow"),
    );
    expect(cows).toHaveLength(10);
    const alloc = getGenesisParams("regtest").alloc;
    expect(alloc.map((a) => bytesToHex(a.address))).toEqual([
      bytesToHex(BRIDGE_ADDRESS),
      ...cows.map((c) => c.address.slice(2)),
    ]);
    for (const cow of cows) expect(BigInt(cow.balanceWei)).toBe(COW_ACCOUNT_BALANCE);
    expect(alloc.slice(1).every((a) => a.balance === COW_ACCOUNT_BALANCE)).toBe(true);
  });

  it("mainnet and testnet fund only the Bridge", () => {
    expect(getGenesisParams("mainnet").alloc).toHaveLength(1);
    expect(getGenesisParams("testnet").alloc).toHaveLength(1);
  });
});
