/**
 * The genesis of each built-in network (docs/protocol/README.md §2, docs/protocol/networks.md §2,
 * docs/protocol/networks.md §3): rskj's header values and the allocation, the Bridge's 21,000,000 RBTC
 * everywhere plus the 10 "cow" accounts on regtest.
 */
import {hexToBytes, utf8ToBytes} from "@xchain/utils";
import type {NetworkName} from "../types.ts";
import type {GenesisAllocAccount, GenesisParams} from "./types.ts";

/** The Bridge precompiled contract, which holds the whole RBTC supply at genesis. */
export const BRIDGE_ADDRESS: Uint8Array = hexToBytes("0000000000000000000000000000000001000006");
/** 21,000,000 RBTC in wei. */
export const BRIDGE_GENESIS_BALANCE = 21_000_000n * 10n ** 18n;
/** The coinbase of every rskj genesis header. */
export const GENESIS_COINBASE: Uint8Array = hexToBytes("3333333333333333333333333333333333333333");
/** The balance of each regtest "cow" account: 10^12 RBTC. */
export const COW_ACCOUNT_BALANCE = 10n ** 30n;

/**
 * Addresses of the regtest accounts of seeds `cow`, `cow1` … `cow9` (keccak-256 of the seed as private key,
 * docs/protocol/networks.md §3).
 */
export const COW_ADDRESSES: readonly Uint8Array[] = [
  "cd2a3d9f938e13cd947ec05abc7fe734df8dd826",
  "7986b3df570230288501eea3d890bd66948c9b79",
  "0a3aa774752ec2042c46548456c094a76c7f3a79",
  "cf7cdbbb5f7ba79d3ffe74a0bba13fc0295f6036",
  "39b12c05e8503356e3a7df0b7b33efa4c054c409",
  "c354d97642faa06781b76ffb6786f72cd7746c97",
  "debe71e1de41fc77c44df4b6db940026e31b0e71",
  "7857288e171c6159c5576d1bd9ac40c0c48a771c",
  "a4dea4d5c954f5fd9e87f0e9752911e83a3d18b3",
  "09a1eda29f664ac8f68106f6567276df0c65d859",
].map((address) => hexToBytes(address));

const bridge: GenesisAllocAccount = {address: BRIDGE_ADDRESS, balance: BRIDGE_GENESIS_BALANCE};

/** Mainnet: rskj `genesis/rsk-mainnet.json`. */
export const mainnetGenesis: GenesisParams = {
  header: {
    difficultyBytes: hexToBytes("0000100000"),
    gasLimitBytes: hexToBytes("67c280"),
    timestamp: 1_514_862_000,
    extraData: utf8ToBytes("Happy Bitcoin Day! 03/Jan/2018 - RSK technology at the service of society"),
    coinbase: GENESIS_COINBASE,
    minimumGasPrice: 183_000_000n,
  },
  alloc: [bridge],
};

/** Testnet: rskj `genesis/orchid-testnet.json`. */
export const testnetGenesis: GenesisParams = {
  header: {
    difficultyBytes: hexToBytes("0000100000"),
    gasLimitBytes: hexToBytes("4c4b40"),
    timestamp: 0,
    extraData: hexToBytes("434d272841"),
    coinbase: GENESIS_COINBASE,
    minimumGasPrice: 0n,
  },
  alloc: [bridge],
};

/** Regtest: rskj `genesis/rsk-dev.json`, with the Bridge and the 10 cow accounts. */
export const regtestGenesis: GenesisParams = {
  header: {
    difficultyBytes: hexToBytes("0000000001"),
    gasLimitBytes: hexToBytes("989680"),
    timestamp: 0,
    extraData: utf8ToBytes("horse"),
    coinbase: GENESIS_COINBASE,
    minimumGasPrice: 0n,
  },
  alloc: [bridge, ...COW_ADDRESSES.map((address) => ({address, balance: COW_ACCOUNT_BALANCE}))],
};

const presets: Record<NetworkName, GenesisParams> = {
  mainnet: mainnetGenesis,
  testnet: testnetGenesis,
  regtest: regtestGenesis,
};

/** The genesis of a built-in network. */
export function getGenesisParams(name: NetworkName): GenesisParams {
  return presets[name];
}
