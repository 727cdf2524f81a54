import type {BridgeConstants} from "./bridge/types.ts";

/** The Rootstock improvement proposals whose activation height changes a rule xchain implements. */
export type Rskip =
  | "RSKIP85"
  | "RSKIP92"
  | "RSKIP97"
  | "RSKIP98"
  | "RSKIP106"
  | "RSKIP110"
  | "RSKIP119"
  | "RSKIP126"
  | "RSKIP144"
  | "RSKIP156"
  | "RSKIP179"
  | "RSKIP180"
  | "RSKIP203"
  | "RSKIP252"
  | "RSKIP290"
  | "RSKIP297"
  | "RSKIP351"
  | "RSKIP412"
  | "RSKIP516"
  | "RSKIP535"
  | "RSKIP536"
  | "RSKIPUMM";

/** First block at which each RSKIP is active; -1 means never (rskj's convention). */
export type ActivationHeights = Readonly<Record<Rskip, number>>;

/** The names of the networks xchain ships presets for. */
export type NetworkName = "mainnet" | "testnet" | "regtest";

/**
 * Per-network consensus constants (docs/protocol/consensus.md, docs/protocol/fees.md,
 * docs/protocol/networks.md; `network-params.json`).
 */
export interface NetworkParams {
  /**
   * A built-in network's name, "custom" for a network from a genesis file, or "fork" for a fork of an
   * upstream chain (both run regtest's rules).
   */
  readonly name: NetworkName | "custom" | "fork";
  /** EIP-155 chain id (`eth_chainId`). */
  readonly chainId: number;
  /** Network id of the peer-to-peer status handshake. */
  readonly p2pNetworkId: number;
  readonly p2pPort: number;
  readonly rpcPort: number;
  /** Target block interval of the difficulty formula, in seconds. */
  readonly durationLimitSeconds: number;
  readonly difficultyBoundDivisor: number;
  /** The divisor from RSKIP-156 on (400 on mainnet and testnet; regtest keeps 2048). */
  readonly difficultyBoundDivisorAfterRskip156: number;
  readonly minimumDifficulty: bigint;
  /** Testnet's minimum from RSKIP-290 on. */
  readonly minimumDifficultyAfterRskip290?: bigint;
  /** How far ahead of local time a block's timestamp may be; 0 disables the whole timestamp rule (regtest). */
  readonly newBlockMaxSecondsInTheFuture: number;
  /** Maximum |Bitcoin header time - RSK timestamp| from RSKIP-179 on (exclusive). */
  readonly maxBtcRskTimestampDiffSeconds: number;
  /** The same limit from RSKIP-297 on (testnet). */
  readonly maxBtcRskTimestampDiffSecondsAfterRskip297?: number;
  readonly uncleListLimit: number;
  readonly uncleGenerationLimit: number;
  readonly minGasLimit: bigint;
  readonly gasLimitBoundDivisor: bigint;
  readonly maxExtraDataSize: number;
  /** Gas limit the miner moves toward. */
  readonly targetGasLimit: bigint;
  /** Blocks after which a block's fees join REMASC's reward pool (rskj's REMASC `maturity`). */
  readonly remascMaturity: number;
  /** REMASC's other constants (docs/protocol/native-contracts.md §11.1). */
  readonly remasc: RemascParams;
  /** Whether the 10 "cow" development accounts are funded at genesis. */
  readonly seedCowAccounts: boolean;
  /**
   * A fork's block F (`forkChainspec`): block F+1 is mined at the minimum difficulty, whatever the
   * upstream's difficulty was. Undefined on every chain that starts from its own genesis.
   */
  readonly forkBlockNumber?: number;
  readonly activation: ActivationHeights;
  /** The Bridge's constants (docs/protocol/native-contracts.md §10.3). */
  readonly bridge: BridgeConstants;
}

/** REMASC's constants (rskj `resources/remasc.json`, `Constants`); amounts in wei, divisors as rskj's. */
export interface RemascParams {
  /** The reward pool pays 1/syntheticSpan of itself per block; the first payout is at maturity + syntheticSpan. */
  readonly syntheticSpan: bigint;
  readonly rskLabsDivisor: bigint;
  readonly federationDivisor: bigint;
  readonly publishersDivisor: bigint;
  readonly punishmentDivisor: bigint;
  readonly lateUncleInclusionPunishmentDivisor: bigint;
  /** RSKIP-85: a payout below minimumGasPrice × this is deferred. */
  readonly minimumPayableGas: bigint;
  /** RSKIP-85: a federator's share below minimumGasPrice × this is kept in `federationBalance`. */
  readonly federatorMinimumPayableGas: bigint;
  /** RSK Labs' address before RSKIP-218, and from it on. */
  readonly rskLabsAddress: Uint8Array;
  readonly rskLabsAddressRskip218: Uint8Array;
  /** RSKIP-218's activation height (iris300); -1 never. */
  readonly rskip218: number;
}
