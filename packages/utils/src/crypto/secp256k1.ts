/**
 * secp256k1 signing and public-key recovery over 32-byte message hashes. Recovery is the hot
 * path of transaction import, so the native libsecp256k1 binding (`secp256k1` package, N-API,
 * ~25x faster) is used when it loads, with @noble/curves as the always-available fallback.
 */
import {createRequire} from "node:module";
import {secp256k1 as noble} from "@noble/curves/secp256k1.js";
import {concatBytes} from "../bytes.ts";

interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, privateKey: Uint8Array): {signature: Uint8Array; recid: number};
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

function loadNative(): NativeSecp256k1 | null {
  if (process.env.XCHAIN_NO_NATIVE_SECP256K1) return null;
  try {
    // The package's index picks the native prebuild and otherwise falls back to a pure-JS
    // elliptic build, which is slower than noble; load only the native binding. (A `require`
    // call by that name, so that test/architecture.test.ts sees the dependency.)
    const require = createRequire(import.meta.url);
    return require("secp256k1/bindings") as NativeSecp256k1;
  } catch {
    return null;
  }
}

const native = loadNative();

/** Which implementation serves ECDSA here: "native" (libsecp256k1) or "noble". */
export const secp256k1Backend: "native" | "noble" = native ? "native" : "noble";

/** A recoverable signature: 32-byte r and s and the recovery id (0 or 1). */
export interface RecoverableSignature {
  r: Uint8Array;
  s: Uint8Array;
  recovery: number;
}

/**
 * Recovers the 64-byte uncompressed public key (without the 0x04 prefix) of a signature over
 * `msgHash`; throws on an invalid signature. `r` and `s` must be 32 bytes each.
 */
export function recoverPublicKey(msgHash: Uint8Array, r: Uint8Array, s: Uint8Array, recovery: number): Uint8Array {
  if (native) return native.ecdsaRecover(concatBytes(r, s), recovery, msgHash, false).subarray(1);
  const sig = concatBytes(Uint8Array.of(recovery), r, s);
  return noble.recoverPublicKey(sig, msgHash, {prehash: false}).subarray(1);
}

/** Signs a 32-byte hash (RFC 6979, low s). */
export function signHash(msgHash: Uint8Array, privateKey: Uint8Array): RecoverableSignature {
  if (native) {
    const {signature, recid} = native.ecdsaSign(msgHash, privateKey);
    return {r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recid};
  }
  const sig = noble.sign(msgHash, privateKey, {prehash: false, format: "recovered"});
  return {r: sig.slice(1, 33), s: sig.slice(33, 65), recovery: sig[0] as number};
}

/** The 64-byte uncompressed public key (without the 0x04 prefix) of a private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (native) return native.publicKeyCreate(privateKey, false).subarray(1);
  return noble.getPublicKey(privateKey, false).subarray(1);
}

/**
 * A public key in both forms: the 33-byte compressed one (Bitcoin's, 0x02/0x03 and x) and the 64-byte
 * uncompressed one without its 0x04 prefix (RSK addresses hash it). Throws for a point not on the curve.
 */
export function publicKeyForms(key: Uint8Array): {compressed: Uint8Array; uncompressed: Uint8Array} {
  const point = noble.Point.fromBytes(key.length === 64 ? concatBytes(Uint8Array.of(4), key) : key);
  return {compressed: point.toBytes(true), uncompressed: point.toBytes(false).subarray(1)};
}
