/** The genesis block (docs/protocol/README.md §2, docs/protocol/networks.md §2) as `Chain.open` writes it. */
import {
  BRIDGE_ADDRESS,
  BRIDGE_GENESIS_BALANCE,
  COW_ACCOUNT_BALANCE,
  COW_ADDRESSES,
  GENESIS_EMPTY_TRIE_ROOT,
  getChainspec,
  getGenesisParams,
  parseCustomGenesis,
} from "@xchain/chainspec";
import {bigIntToFixedBytes, bytesToHex, keccak256} from "@xchain/utils";
import {afterEach, describe, expect, it} from "vitest";
import {ImportResultKind} from "../src/index.ts";
import {cleanup, newBuilder, openChain} from "./helpers.ts";

afterEach(cleanup);

describe("genesis", () => {
  it("writes the regtest genesis into an empty store: header layout, allocation, head", async () => {
    const {chain} = await openChain();
    const genesis = (await chain.getBlockByNumber(0))!;
    expect(genesis.hash()).toEqual(chain.genesisHash);
    expect(chain.head()).toMatchObject({number: 0, totalDifficulty: 1n});
    expect(genesis.transactions).toHaveLength(0);
    expect(genesis.header.txTrieRoot).toEqual(keccak256(Uint8Array.of(0x80)));
    expect(genesis.header.txTrieRoot).toEqual(GENESIS_EMPTY_TRIE_ROOT);
    expect(genesis.header.ummRoot).toBeUndefined();
    expect(genesis.header.mergedMining?.bitcoinHeader).toEqual(Uint8Array.of(0));
    const state = await chain.stateAt(chain.genesisHash);
    expect(await state.getBalance(BRIDGE_ADDRESS)).toBe(BRIDGE_GENESIS_BALANCE);
    for (const cow of COW_ADDRESSES) expect(await state.getBalance(cow)).toBe(COW_ACCOUNT_BALANCE);
    expect(await chain.importBlock(genesis.encode())).toMatchObject({kind: ImportResultKind.EXIST});
  });

  it("is deterministic: the same hash in every fresh store and in the test chain builder", async () => {
    const [a, b] = [await openChain(), await openChain()];
    expect(a.chain.genesisHash).toEqual(b.chain.genesisHash);
    expect((await newBuilder()).genesis.hash()).toEqual(a.chain.genesisHash);
  });

  it("builds each built-in network's genesis (xchain's hashes differ from rskj's: MPT state root, docs/protocol/README.md §2)", async () => {
    const rskjHashes = {
      mainnet: "f88529d4ab262c0f4d042e9d8d3f2472848eaafe1a9b7213f57617eb40a9f9e0",
      testnet: "cabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42",
      regtest: "8ea789fabef0dd4946ed53f001e7b6f8a8d0c22a612a6099fc7f93c990af68fe",
    };
    for (const name of ["mainnet", "testnet", "regtest"] as const) {
      const {chain} = await openChain({chainspec: getChainspec(name), genesis: getGenesisParams(name)});
      const genesis = (await chain.getBlockByNumber(0))!;
      expect(bytesToHex(chain.genesisHash)).not.toBe(rskjHashes[name]);
      expect(genesis.header.difficulty).toBe(name === "regtest" ? 1n : 1_048_576n);
    }
  });

  it("builds a custom network's genesis with code and storage", async () => {
    const {chainspec, genesis} = parseCustomGenesis(
      JSON.stringify({
        config: {chainId: 77},
        difficulty: "0x01",
        gasLimit: "0x7a1200",
        alloc: {
          "0x00000000000000000000000000000000000000aa": {balance: "5", code: "0x6001", storage: {"0x01": "0x2a"}},
        },
      }),
    );
    const {chain} = await openChain({chainspec, genesis});
    const state = await chain.stateAt(chain.genesisHash);
    const account = new Uint8Array(20);
    account[19] = 0xaa;
    expect(await state.getBalance(account)).toBe(5n);
    expect(await state.getCode(account)).toEqual(Uint8Array.of(0x60, 0x01));
    expect(await state.getStorage(account, bigIntToFixedBytes(1n, 32))).toEqual(bigIntToFixedBytes(42n, 32));
    expect((await chain.getHeaderByNumber(0))?.gasLimit).toBe(8_000_000n);
  });
});
