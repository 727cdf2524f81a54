/**
 * HDWalletUtils' `getMultisigScriptHash` (`co/rsk/pcc/bto/GetMultisigScriptHash.java`, bitcoinj's
 * `ScriptBuilder.createP2SHOutputScript`; docs/protocol/native-contracts.md §5): the HASH160 of the m-of-n
 * CHECKMULTISIG redeem script over the keys compressed and sorted.
 */
import {secp256k1} from "@noble/curves/secp256k1.js";
import {ripemd160} from "@noble/hashes/legacy.js";
import {compareBytes, concatBytes, sha256} from "@xchain/utils";
import {refuse} from "../dispatch/nativeMethods.ts";
import {NAME} from "./extendedKeys.ts";

const METHOD = "getMultisigScriptHash";
const MIN_KEYS = 2;
const MAX_KEYS = 15;
const BASE_GAS = 20_000n;
const GAS_PER_EXTRA_KEY = 700n;
/** OP_1 is 0x51; OP_n is 0x50 + n up to 16. */
const OP_N_BASE = 0x50;
const OP_CHECKMULTISIG = 0xae;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/** rskj's price: 20,000 plus 700 per key beyond the second (20,000 for fewer than two). */
export function multisigGas(keys: readonly unknown[]): bigint {
  return keys.length < MIN_KEYS ? BASE_GAS : BASE_GAS + BigInt(keys.length - MIN_KEYS) * GAS_PER_EXTRA_KEY;
}

/**
 * A 33- or 65-byte public key, compressed; fails for another length or a point not on the curve. The 65-byte
 * hybrid form (prefix 06 or 07: the y parity as well), which rskj's BouncyCastle decodes, is taken when its
 * parity is the point's.
 */
function compressed(key: Uint8Array): Uint8Array {
  if (key.length !== 33 && key.length !== 65) refuse(NAME, METHOD, `Invalid public key length: ${key.length}`);
  const hybrid = key.length === 65 && (key[0] === 0x06 || key[0] === 0x07);
  try {
    const point = secp256k1.Point.fromBytes(hybrid ? Uint8Array.of(0x04, ...key.subarray(1)) : key);
    const odd = (key[64] as number) & 1;
    if (hybrid && odd !== ((key[0] as number) & 1)) throw new Error("inconsistent y parity in hybrid encoding");
    return point.toBytes(true);
  } catch {
    refuse(NAME, METHOD, "Invalid public key format");
  }
}

/** The P2SH script hash of `m` of `keys`, with rskj's checks in rskj's order. */
export function multisigScriptHash(m: bigint, keys: readonly Uint8Array[]): Uint8Array {
  // Java's intValueExact.
  if (m < INT32_MIN || m > INT32_MAX) refuse(NAME, METHOD, `minimum signatures ${m} is not an int`);
  if (m <= 0n) refuse(NAME, METHOD, "Minimum required signatures must be present and greater than zero");
  if (keys.length < MIN_KEYS) refuse(NAME, METHOD, `At least ${MIN_KEYS} public keys are required`);
  if (BigInt(keys.length) < m) {
    refuse(NAME, METHOD, `Given public keys (${keys.length}) are less than the minimum required signatures (${m})`);
  }
  if (keys.length > MAX_KEYS) {
    refuse(
      NAME,
      METHOD,
      `Given public keys (${keys.length}) are more than the maximum allowed signatures (${MAX_KEYS})`,
    );
  }
  const sorted = keys.map(compressed).sort(compareBytes);
  const script = concatBytes(
    Uint8Array.of(OP_N_BASE + Number(m)),
    ...sorted.map((key) => concatBytes(Uint8Array.of(key.length), key)),
    Uint8Array.of(OP_N_BASE + sorted.length, OP_CHECKMULTISIG),
  );
  return ripemd160(sha256(script));
}
