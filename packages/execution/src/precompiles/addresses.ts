/**
 * The addresses rskj treats as precompiled contracts (docs/protocol/networks.md §4): the Ethereum-numbered
 * 0x01–0x09 and the RSK native contracts. rskj creates their accounts in state, so they always
 * exist (no 25,000 new-account charge), EXTCODESIZE of them is 2²⁵⁶−1 and EXTCODEHASH keccak256("").
 */
import {hexToBytes} from "@xchain/utils";

const ETHEREUM_PRECOMPILES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
// The RSK native contracts by the low 4 bytes of their address, with rskj's names (docs/protocol/gas.md §6.2).
const RSK_NATIVE_CONTRACTS: ReadonlyMap<number, string> = new Map([
  [0x01000006, "Bridge"],
  [0x01000008, "REMASC"],
  [0x01000009, "HDWalletUtils"],
  [0x01000010, "BlockHeader"],
  [0x01000011, "Environment"],
  [0x01000016, "Secp256k1Addition"],
  [0x01000017, "Secp256k1Multiplication"],
]);
const ALL = new Set([...ETHEREUM_PRECOMPILES, ...RSK_NATIVE_CONTRACTS.keys()]);

/** The 20-byte address whose low 4 bytes are `n` (0x01000006 is the Bridge's). */
export const precompiledAddress = (n: number): Uint8Array => hexToBytes(n.toString(16).padStart(40, "0"));

/** The accounts a genesis state must create so that execution sees them as existing (docs/protocol/gas.md §4). */
export const PRECOMPILED_ACCOUNT_ADDRESSES: readonly Uint8Array[] = [...ALL].map(precompiledAddress);

/** The RSK native contracts (docs/protocol/gas.md §6.2): address and name (native/registry.ts has those xchain executes). */
export const NATIVE_CONTRACTS: readonly {address: Uint8Array; name: string}[] = [...RSK_NATIVE_CONTRACTS].map(
  ([n, name]) => ({address: precompiledAddress(n), name}),
);

/** The low 4 bytes of `address` (20 bytes) when its first 16 are zero, else undefined. */
function lowWord(address: Uint8Array): number | undefined {
  for (let i = 0; i < 16; i++) if (address[i] !== 0) return undefined;
  const tail =
    (((address[16] as number) << 24) | ((address[17] as number) << 16) | ((address[18] as number) << 8)) >>> 0;
  return tail + (address[19] as number);
}

/** True when `address` (20 bytes) is one of `PRECOMPILED_ACCOUNT_ADDRESSES`. */
export function isPrecompiledAddress(address: Uint8Array): boolean {
  const n = lowWord(address);
  return n !== undefined && ALL.has(n);
}

/** The name of the RSK native contract at `address` (20 bytes), or undefined for any other address. */
export function nativeContractName(address: Uint8Array): string | undefined {
  const n = lowWord(address);
  return n === undefined ? undefined : RSK_NATIVE_CONTRACTS.get(n);
}
