/** The hash functions of the protocol: keccak-256 for RSK objects, SHA-256 for Bitcoin. */
import {sha256 as nobleSha256} from "@noble/hashes/sha2.js";
import {keccak_256} from "@noble/hashes/sha3.js";

/** keccak-256 (the pre-standard SHA-3 used by Ethereum and RSK). */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

/** SHA-256. */
export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** Bitcoin's double SHA-256. */
export function sha256d(data: Uint8Array): Uint8Array {
  return nobleSha256(nobleSha256(data));
}
