/**
 * The keystore's refusal when every key derivation is taken and its queue is full
 * (docs/protocol/keystore.md §5): a typed error of the `Keystore` contract, answered -32005 (errorMapping).
 */
import {NodeError} from "@xchain/utils";

/** The one reason the keystore is busy. */
export enum KeystoreBusyCode {
  BUSY = "KEYSTORE_BUSY",
}

/** How busy it was: derivations running and waiting, both at their bounds. */
export type KeystoreBusyType = {code: KeystoreBusyCode.BUSY; running: number; waiting: number};

/** Thrown by a `Keystore` that cannot take another key derivation now; the message names the bounds. */
export class KeystoreBusyError extends NodeError<KeystoreBusyType> {}
