/**
 * The hash functions of the protocol: keccak-256 for RSK objects, SHA-256 for Bitcoin.
 * keccak-256 runs in WebAssembly (hash-wasm, 5-10x faster than JavaScript for the small inputs
 * of trie nodes and transactions); @noble/hashes serves if the module cannot be instantiated.
 */
import {ripemd160} from "@noble/hashes/legacy.js";
import {sha256 as nobleSha256} from "@noble/hashes/sha2.js";
import {keccak_256} from "@noble/hashes/sha3.js";
import {createKeccak, type IHasher} from "hash-wasm";

async function loadWasmKeccak(): Promise<IHasher | null> {
  if (process.env.XCHAIN_NO_WASM_KECCAK) return null;
  try {
    return await createKeccak(256);
  } catch {
    return null;
  }
}

// One hasher instance, reused: `init` resets it and every call runs to completion synchronously.
const wasmKeccak = await loadWasmKeccak();

/** Which implementation serves keccak-256 here: "wasm" (hash-wasm) or "noble". */
export const keccakBackend: "wasm" | "noble" = wasmKeccak ? "wasm" : "noble";

/** keccak-256 (the pre-standard SHA-3 used by Ethereum and RSK). */
export const keccak256: (data: Uint8Array) => Uint8Array = wasmKeccak
  ? (data) => wasmKeccak.init().update(data).digest("binary")
  : (data) => keccak_256(data);

/** SHA-256. */
export function sha256(data: Uint8Array): Uint8Array {
  return nobleSha256(data);
}

/** Bitcoin's double SHA-256. */
export function sha256d(data: Uint8Array): Uint8Array {
  return nobleSha256(nobleSha256(data));
}

/** Bitcoin's HASH160: RIPEMD-160 of SHA-256 (public key and script hashes of addresses). */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(nobleSha256(data));
}
