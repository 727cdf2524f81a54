/**
 * The contract every RSK native contract implements (docs/protocol/native-contracts.md §2): a price for
 * its input and a run over it, reached through one `customPrecompiles` adapter (adapter.ts) that gives
 * rskj's failure semantics. A contract fails by throwing `NativeContractFailure` (errors.ts); any other
 * error is not a failure of the contract but of the node (a state read, an interrupted call) and
 * stops the whole message, as every error the EVM does not own does.
 */
import type {StateManagerInterface} from "@ethereumjs/common";
import type {Chainspec} from "@xchain/chainspec";
import type {Log} from "@xchain/primitives";
import type {ExecutionBlockContext, ExecutionChainView} from "../../types.ts";

/**
 * How the native contract was reached: the transaction's own `to` (`TRANSACTION`), or an internal call
 * by one of the four call opcodes (docs/protocol/native-contracts.md §2.2).
 */
export type NativeCallType = "TRANSACTION" | "CALL" | "CALLCODE" | "DELEGATECALL" | "STATICCALL";

/** What one run of a native contract sees besides its input. */
export interface NativeCallContext {
  /** The contract's own address (the code address), 20 bytes. */
  readonly address: Uint8Array;
  /**
   * The immediate sender (rskj's InternalTransaction sender): the calling frame's address, or the
   * transaction's sender for a top-level call. 20 bytes.
   */
  readonly sender: Uint8Array;
  /** The transaction's sender (ORIGIN), 20 bytes. */
  readonly origin: Uint8Array;
  /** The value moved with the call; 0 for DELEGATECALL and STATICCALL. */
  readonly value: bigint;
  readonly callType: NativeCallType;
  /** Whether the call runs in a static context (STATICCALL, or below one): a contract that writes must fail. */
  readonly isStatic: boolean;
  /** The depth of the native contract's own frame: 0 when it is the transaction's `to`, n + 1 when a frame at depth n calls it. */
  readonly depth: number;
  /**
   * rskj's `isLocalCallTransaction`: true in eth_call and eth_estimateGas (and debug_traceCall), false in a
   * transaction; the same for every internal call of the message (docs/protocol/native-contracts.md §2.3).
   */
  readonly localCall: boolean;
  /** The hash of the transaction being executed; undefined in a call. */
  readonly transactionHash: Uint8Array | undefined;
  /** The block the message runs in. */
  readonly block: ExecutionBlockContext;
  /** The chain the block extends: its ancestors' headers (BlockHeader), BLOCKHASH, the fork's ancestry. */
  readonly chain: ExecutionChainView;
  readonly chainspec: Chainspec;
  /**
   * The message's state, inside the native contract's own checkpoint: writes are kept when the run
   * succeeds and rolled back when it fails or its caller reverts.
   */
  readonly state: StateManagerInterface;
  /**
   * The 64-byte public key (no 0x04 prefix) that signed the transaction, recovered from its signature;
   * undefined in a call (no signature) and for an impersonated transaction. The Bridge's `releaseBtc`
   * pays the Bitcoin address of its compressed form (docs/protocol/native-contracts.md §10.7).
   */
  readonly transactionPublicKey?: Uint8Array | undefined;
}

/** What a successful run answers. */
export interface NativeRunResult {
  /** The return data; empty for rskj's `null` output. */
  readonly output: Uint8Array;
  /** Logs the contract emits (the Bridge's events, REMASC's `mining_fee`). */
  readonly logs?: readonly Log[];
}

/** One RSK native contract (docs/protocol/native-contracts.md §1 for the address map). */
export interface NativeContract {
  /** rskj's name for it ("Bridge", "BlockHeader", …). */
  readonly name: string;
  /** Its address, 20 bytes. */
  readonly address: Uint8Array;
  /**
   * Whether it exists at this block of this network (its RSKIP). An inactive contract's address is an ordinary
   * account: a call to it succeeds with empty output and costs nothing.
   */
  isActive(chainspec: Chainspec, blockNumber: number): boolean;
  /**
   * Whether it can run on a forked chain (docs/forking.md §6): one that reads the upstream's state it cannot
   * reach answers false and every message reaching it stops with `NativeContractUnavailableError`.
   */
  readonly runsOnFork: boolean;
  /**
   * rskj's `getGasForData`: the gas its run costs, charged before it runs (0 for input it cannot parse);
   * a promise when the price reads state (the Bridge's `getBtcTransactionConfirmations`).
   */
  gas(data: Uint8Array, context: NativeCallContext): bigint | Promise<bigint>;
  /** rskj's `execute`: the answer, or a thrown `NativeContractFailure`. */
  run(data: Uint8Array, context: NativeCallContext): Promise<NativeRunResult> | NativeRunResult;
}
