/**
 * What the native contracts of one EVM read of the message being run besides the EVM's own message
 * (docs/protocol/native-contracts.md §2.3): set by `runMessage` before each transaction or call, so that
 * an EVM reused by successive calls (calls/callRunner.ts) reads the current one.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {ExecutionBlockContext} from "../../types.ts";

/** The per-message facts a native contract reads. */
export interface NativeSession {
  readonly chainspec: Chainspec;
  /** The block the message runs in; undefined until the first message. */
  block: ExecutionBlockContext | undefined;
  /** rskj's `isLocalCallTransaction`: true for a call (eth_call, eth_estimateGas), false for a transaction. */
  localCall: boolean;
  /** The transaction's sender (ORIGIN), 20 bytes. */
  origin: Uint8Array;
  /** The transaction's hash; undefined for a call. */
  transactionHash: Uint8Array | undefined;
  /** The key that signed the transaction (64 bytes); undefined for a call or an impersonated transaction. */
  transactionPublicKey: Uint8Array | undefined;
}

/** A session of `chainspec` before its first message. */
export function createNativeSession(chainspec: Chainspec): NativeSession {
  return {
    chainspec,
    block: undefined,
    localCall: false,
    origin: new Uint8Array(20),
    transactionHash: undefined,
    transactionPublicKey: undefined,
  };
}
