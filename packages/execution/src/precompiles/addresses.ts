/**
 * The addresses rskj treats as precompiled contracts (docs/protocol/networks.md §4): the Ethereum-numbered
 * 0x01–0x09 and the RSK native contracts. rskj creates their accounts in state, so they always
 * exist (no 25,000 new-account charge), EXTCODESIZE of them is 2²⁵⁶−1 and EXTCODEHASH keccak256("").
 */
import {hexToBytes} from "@xchain/utils";

const ETHEREUM_PRECOMPILES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
// Bridge, REMASC, HD wallet utils, block header, environment, secp256k1 add and mul (docs/protocol/gas.md §6.2).
const RSK_NATIVE_CONTRACTS = [0x01000006, 0x01000008, 0x01000009, 0x01000010, 0x01000011, 0x01000016, 0x01000017];
const ALL = new Set([...ETHEREUM_PRECOMPILES, ...RSK_NATIVE_CONTRACTS]);

/** The accounts a genesis state must create so that execution sees them as existing (docs/protocol/gas.md §4). */
export const PRECOMPILED_ACCOUNT_ADDRESSES: readonly Uint8Array[] = [...ALL].map((n) =>
  hexToBytes(n.toString(16).padStart(40, "0")),
);

/** True when `address` (20 bytes) is one of `PRECOMPILED_ACCOUNT_ADDRESSES`. */
export function isPrecompiledAddress(address: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if (address[i] !== 0) return false;
  const tail =
    (((address[16] as number) << 24) | ((address[17] as number) << 16) | ((address[18] as number) << 8)) >>> 0;
  return ALL.has(tail + (address[19] as number));
}
