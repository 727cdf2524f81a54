/**
 * The Bridge's storage read outside execution (eth_bridgeState, xchain_getStorageBytesAt): over a
 * state's words, or over bytes as rskj stores them (a fork's upstream). Nothing is written.
 */
import type {BridgeConstants} from "@xchain/chainspec";
import {type BytesStorage, bytesStorage} from "@xchain/state";
import {BridgeStorage} from "./storage.ts";

/** A state's storage words (32 bytes, zeros when unset), as a `StateReader` answers them. */
export type StorageWordReader = (address: Uint8Array, slot: Uint8Array) => Promise<Uint8Array>;

/** The byte strings of `address`'s storage read from state words; writing is refused. */
export function readOnlyBytesStorage(address: Uint8Array, readWord: StorageWordReader): BytesStorage {
  return bytesStorage({
    get: (slot) => readWord(address, slot),
    put: () => Promise.reject(new Error("read-only storage")),
  });
}

/** The Bridge's storage over `bytes` (read only: nothing here calls `save`). */
export const bridgeStorageReader = (bytes: BytesStorage, constants: BridgeConstants): BridgeStorage =>
  new BridgeStorage(bytes, constants);
