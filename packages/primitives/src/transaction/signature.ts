/**
 * The signature fields of a legacy transaction (docs/protocol/transactions.md): v is a single byte, 27/28 or
 * chainId·2 + 35/36; r and s are at most 32 bytes, in [1, n), and s is below floor(n/2).
 */
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex, keccak256, recoverPublicKey} from "@xchain/utils";
import {
  TransactionDecodeError,
  TransactionDecodeErrorCode,
  TransactionSignatureError,
  TransactionSignatureErrorCode,
} from "./errors.ts";
import {ADDRESS_LENGTH} from "./fields.ts";

/** The order n of the secp256k1 group. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

// rskj's acceptTransactionSignature: s < SECP256K1N.divide(2), so s = floor(n/2) itself is refused too.
const HALF_N = SECP256K1_N / 2n;
const LOWER_REAL_V = 27;
const CHAIN_ID_INC = 35;
/** The largest chain id a one-byte v can carry. */
export const MAX_CHAIN_ID = (255 - CHAIN_ID_INC - 1) >> 1;

/** A transaction signature after the checks of docs/protocol/transactions.md. */
export interface TransactionSignature {
  /** The ECDSA recovery id. */
  recovery: number;
  /** The EIP-155 chain id; undefined for v 27/28 and for chain id 0 (v 35/36), which rskj treats alike. */
  chainId: number | undefined;
  r: bigint;
  s: bigint;
}

/** Parses and checks raw v, r and s against the node's chain id. */
export function parseSignature(v: Uint8Array, r: Uint8Array, s: Uint8Array, nodeChainId: number): TransactionSignature {
  const {recovery, chainId} = parseV(v, nodeChainId);
  const signature = {recovery, chainId, r: parseScalar(r, "r"), s: parseScalar(s, "s")};
  if (signature.s >= HALF_N) {
    throw new TransactionDecodeError({code: TransactionDecodeErrorCode.HIGH_S}, "tx: s is not below floor(n/2)");
  }
  return signature;
}

function parseV(raw: Uint8Array, nodeChainId: number): {recovery: number; chainId: number | undefined} {
  const v = raw[0] as number;
  if (raw.length !== 1 || (v !== LOWER_REAL_V && v !== LOWER_REAL_V + 1 && v < CHAIN_ID_INC)) {
    const hex = bytesToHex(raw);
    throw new TransactionDecodeError({code: TransactionDecodeErrorCode.BAD_V, v: hex}, `tx: invalid v 0x${hex}`);
  }
  if (v < CHAIN_ID_INC) return {recovery: v - LOWER_REAL_V, chainId: undefined};
  const chainId = (v - CHAIN_ID_INC) >> 1;
  if (chainId !== 0 && chainId !== nodeChainId) {
    throw new TransactionDecodeError(
      {code: TransactionDecodeErrorCode.FOREIGN_CHAIN_ID, chainId, expected: nodeChainId},
      `tx: chain id ${chainId}, expected ${nodeChainId}`,
    );
  }
  // rskj keeps chain id 0 as "no chain id": the signing hash has 6 fields and v re-encodes as 27/28.
  return {recovery: (v - CHAIN_ID_INC) & 1, chainId: chainId === 0 ? undefined : chainId};
}

function parseScalar(raw: Uint8Array, field: "r" | "s"): bigint {
  if (raw.length > 32) {
    throw new TransactionDecodeError(
      {code: TransactionDecodeErrorCode.SIGNATURE_TOO_LONG, field, length: raw.length},
      `tx: ${field} has ${raw.length} bytes`,
    );
  }
  const value = bytesToBigInt(raw);
  if (value === 0n || value >= SECP256K1_N) {
    throw new TransactionDecodeError(
      {code: TransactionDecodeErrorCode.SIGNATURE_OUT_OF_RANGE, field},
      `tx: ${field} is zero or not below n`,
    );
  }
  return value;
}

/** The v byte of a signature: 27/28 without a chain id, chainId·2 + 35/36 with one. */
export function encodeV(recovery: number, chainId: number | undefined): number {
  return chainId === undefined ? LOWER_REAL_V + recovery : chainId * 2 + CHAIN_ID_INC + recovery;
}

/** The account address of a 64-byte uncompressed public key: the last 20 bytes of its keccak-256. */
export function publicKeyToAddress(publicKey: Uint8Array): Uint8Array {
  return keccak256(publicKey).slice(32 - ADDRESS_LENGTH);
}

/**
 * Recovers the signer's 64-byte public key (no 0x04 prefix) of `hash`; a signature no key matches
 * is a `TransactionSignatureError`.
 */
export function recoverSignerPublicKey(hash: Uint8Array, signature: TransactionSignature): Uint8Array {
  try {
    return recoverPublicKey(
      hash,
      bigIntToFixedBytes(signature.r, 32),
      bigIntToFixedBytes(signature.s, 32),
      signature.recovery,
    );
  } catch (e) {
    throw new TransactionSignatureError(
      {code: TransactionSignatureErrorCode.UNRECOVERABLE, reason: e instanceof Error ? e.message : String(e)},
      "tx: no public key matches the signature",
    );
  }
}
