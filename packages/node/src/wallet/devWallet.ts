/**
 * The regtest development wallet (docs/protocol/networks.md §3): the ten cow accounts, whose private keys
 * are keccak-256 of the seeds `cow`, `cow1` … `cow9` — derived here, never read from a file. RPC
 * signs with it for eth_sendTransaction and eth_sign; the keys stay in memory.
 */
import {type DevWallet, PrivateKeyWallet} from "@xchain/rpc";
import {keccak256, utf8ToBytes} from "@xchain/utils";

/** The seeds of the ten accounts the regtest genesis funds. */
export const COW_SEEDS: readonly string[] = ["cow", ...Array.from({length: 9}, (_, i) => `cow${i + 1}`)];

/** The private keys of the cow accounts, in seed order. */
export function cowPrivateKeys(): Uint8Array[] {
  return COW_SEEDS.map((seed) => keccak256(utf8ToBytes(seed)));
}

/** The node's dev wallet: the cow accounts when `enabled` (config allows it on regtest only), else none. */
export function createDevWallet(enabled: boolean, chainId: number): DevWallet | undefined {
  return enabled ? new PrivateKeyWallet(cowPrivateKeys(), chainId) : undefined;
}
