/**
 * The regtest development accounts (docs/protocol/networks.md §3) with their private keys, for signing test
 * transactions.
 */
import {hexToBytes} from "@xchain/utils";
import {readJsonVector} from "./vectors.ts";

/** A funded development account. */
export interface DevAccount {
  seed: string;
  privateKey: Uint8Array;
  address: Uint8Array;
}

interface AccountsVector {
  accounts: {seed: string; privateKey: string; address: string}[];
}

let cached: DevAccount[] | undefined;

/** The ten `cow` accounts funded by the regtest genesis, in seed order (cow, cow1 … cow9). */
export function cowAccounts(): DevAccount[] {
  cached ??= readJsonVector<AccountsVector>("regtest-accounts.json")
    .accounts.filter((a) => a.seed.startsWith("cow"))
    .map((a) => ({seed: a.seed, privateKey: hexToBytes(a.privateKey), address: hexToBytes(a.address)}));
  return cached;
}
