/**
 * The Bridge's per-network constants (docs/protocol/native-contracts.md §10.3): rskj's
 * `BridgeConstants` and the federation, fee-per-kb, locking-cap and whitelist constants it holds.
 * Amounts are in satoshis; authorizers are RSK addresses (20 bytes).
 */

/** The Bitcoin network the Bridge's light client follows (bitcoinj's parameters). */
export interface BtcNetworkParams {
  /** bitcoinj's id: "regtest", "testnet" (testnet3) or "mainnet". */
  readonly id: "regtest" | "testnet" | "mainnet";
  /** The genesis block's 80-byte header (its hash, displayed, is `genesisHash`). */
  readonly genesisHeader: Uint8Array;
  /** The genesis block hash in display (RPC) byte order. */
  readonly genesisHash: Uint8Array;
  /** Base58 version byte of pay-to-public-key-hash addresses. */
  readonly p2pkhVersion: number;
  /** Base58 version byte of pay-to-script-hash addresses. */
  readonly p2shVersion: number;
}

/** A set of authorizers: who may vote, and how many must agree (rskj's `AddressBasedAuthorizer`). */
export interface BridgeAuthorizer {
  readonly addresses: readonly Uint8Array[];
  /** ONE: any one of them; MAJORITY: ⌊n/2⌋+1 of them. */
  readonly required: "one" | "majority";
}

/** The federation a chain starts with. */
export interface GenesisFederation {
  /** Compressed secp256k1 public keys (33 bytes), as configured; BTC, RSK and MST keys are the same. */
  readonly publicKeys: readonly Uint8Array[];
  /** Creation time in milliseconds since the epoch (rskj's `Instant`). */
  readonly creationTimeMs: bigint;
  /** rskj fixes the genesis federation's creation block number at 1. */
  readonly creationBlockNumber: bigint;
}

export interface BridgeConstants {
  readonly btcParams: BtcNetworkParams;
  readonly genesisFederation: GenesisFederation;
  /** Votes on federation changes (`createFederation`, `commitFederation`…). */
  readonly federationChangeAuthorizer: BridgeAuthorizer;
  readonly feePerKbChangeAuthorizer: BridgeAuthorizer;
  readonly lockWhitelistChangeAuthorizer: BridgeAuthorizer;
  readonly increaseLockingCapAuthorizer: BridgeAuthorizer;
  /** Confirmations a peg-in needs on Bitcoin. */
  readonly btc2RskMinimumAcceptableConfirmations: number;
  /** RSK blocks a peg-out waits for before the federation signs it. */
  readonly rsk2BtcMinimumAcceptableConfirmations: number;
  /** Smallest peg-in from RSKIP-219 on, and before it. */
  readonly minimumPeginTxValue: bigint;
  readonly legacyMinimumPeginTxValue: bigint;
  /** Smallest peg-out, and before RSKIP-219. */
  readonly minimumPegoutTxValue: bigint;
  readonly legacyMinimumPegoutTxValue: bigint;
  readonly genesisFeePerKb: bigint;
  readonly maxFeePerKb: bigint;
  readonly lockingCapInitialValue: bigint;
  readonly lockingCapIncrementsMultiplier: bigint;
  /** RSK blocks between two peg-out batches (RSKIP-271). */
  readonly numberOfBlocksBetweenPegouts: number;
  readonly minSecondsBetweenCallsReceiveHeader: number;
  readonly maxDepthBlockchainAccepted: number;
  readonly btcHeightWhenBlockIndexActivates: number;
  readonly maxDepthToSearchBlocksBelowIndexActivation: number;
  /** A peg-out must keep at least this percentage of its value after fees. */
  readonly minimumPegoutValuePercentageToReceiveAfterFee: number;
  readonly maxInputsPerPegoutTransaction: number;
  /** RSK blocks before a committed federation becomes active (RSKIP-383). */
  readonly federationActivationAge: number;
}
