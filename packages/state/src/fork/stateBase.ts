/**
 * The base a forked state reads what it has not written itself from (docs/architecture.md, "The
 * forked state"): the upstream's state at the fork block, or any other fixed state (`readerBase`).
 */
import {encodeRlp} from "@xchain/primitives";
import {bigIntToBytes, bytesToPrefixedHex, keccak256} from "@xchain/utils";
import {StateError, StateErrorCode} from "../errors.ts";

/** An account of the base. */
export interface BaseAccount {
  nonce: bigint;
  balance: bigint;
  codeHash: Uint8Array;
  /** Whether its storage is empty; undefined when the base cannot tell (every slot is then asked). */
  storageEmpty: boolean | undefined;
  /**
   * Its storage root when the base knows it (a local state, or an upstream's `eth_getProof`
   * storageHash): what a forked state reports for an account it has not written. Added to the
   * design's contract so that a copy of a local state reports the exact root (EIP-7610's check).
   */
  storageRoot?: Uint8Array;
}

/** What a forked state reads from. Reads only: nothing a forked state does writes to its base. */
export interface StateBase {
  /** keccak256(RLP[chainId, forkBlockHash]) (`forkBaseId`): the value every state on this base carries in its marker leaf. */
  readonly id: Uint8Array;
  /** The account at the fork block; undefined when it does not exist. */
  account(address: Uint8Array): Promise<BaseAccount | undefined>;
  /** The 32-byte word of a slot at the fork block. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
  /** The account's code at the fork block, whose hash is `codeHash`. */
  code(address: Uint8Array, codeHash: Uint8Array): Promise<Uint8Array>;
}

/**
 * The base forked states are read over now, asked at each open: a re-fork swaps it under every
 * `StateDatabase` of the process at once.
 */
export interface ForkBaseHolder {
  current(): StateBase | undefined;
}

/** The id of the base of chain `chainId` at the block `forkBlockHash`. */
export function forkBaseId(chainId: bigint, forkBlockHash: Uint8Array): Uint8Array {
  return keccak256(encodeRlp([bigIntToBytes(chainId), forkBlockHash]));
}

/** The base has no code under `codeHash` for the account asked: the forked state is not over this base's state. */
export function noBaseCode(codeHash: Uint8Array): StateError {
  const key = `code ${bytesToPrefixedHex(codeHash)}`;
  return new StateError({code: StateErrorCode.NODE_MISSING, key}, `the base has no ${key}`);
}
