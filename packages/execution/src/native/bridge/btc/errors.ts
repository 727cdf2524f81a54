/**
 * The light client's and peg-ins' typed failures (docs/protocol/native-contracts.md §10.5, §10.6). A
 * `BtcHeaderError` is a header the light client refuses (receiveHeader answers −99 for it, receiveHeaders
 * skips it); a `PeginError` fails the Bridge call, as rskj's exceptions do (§2).
 */
import {NodeError} from "@xchain/utils";

export enum BtcHeaderErrorCode {
  /** nBits encodes a target that is not positive or is above the network's limit. */
  BAD_TARGET = "BTC_HEADER_BAD_TARGET",
  /** The header's hash is above its target. */
  HASH_ABOVE_TARGET = "BTC_HEADER_HASH_ABOVE_TARGET",
  /** nBits differs from what the difficulty rules require after the previous header. */
  BAD_DIFFICULTY = "BTC_HEADER_BAD_DIFFICULTY",
  /** A retarget point whose ancestors the store does not hold (the chain is busted or starts too late). */
  RETARGET_ANCESTOR_MISSING = "BTC_HEADER_RETARGET_ANCESTOR_MISSING",
  /** The header does not join the stored chain on any path (bitcoinj's orphan/split failures). */
  NOT_CONNECTED = "BTC_HEADER_NOT_CONNECTED",
}

export type BtcHeaderErrorType =
  | {code: BtcHeaderErrorCode.BAD_TARGET; bits: number}
  | {code: BtcHeaderErrorCode.HASH_ABOVE_TARGET; hash: string}
  | {code: BtcHeaderErrorCode.BAD_DIFFICULTY; height: number; bits: number; expected: number}
  | {code: BtcHeaderErrorCode.RETARGET_ANCESTOR_MISSING; height: number}
  | {code: BtcHeaderErrorCode.NOT_CONNECTED; hash: string};

/** A Bitcoin header the light client refuses. */
export class BtcHeaderError extends NodeError<BtcHeaderErrorType> {}

export enum PeginErrorCode {
  /** The partial merkle tree's bytes do not match its declared size, or the tree is malformed. */
  BAD_PARTIAL_MERKLE_TREE = "BRIDGE_PEGIN_BAD_PARTIAL_MERKLE_TREE",
  /** The transaction has no inputs, does not parse, or fails bitcoinj's `verify` checks. */
  BAD_TRANSACTION = "BRIDGE_PEGIN_BAD_TRANSACTION",
  /** The height is below what the block index lets the Bridge search (RSKIP-199), or not in the store. */
  HEIGHT_NOT_SEARCHABLE = "BRIDGE_PEGIN_HEIGHT_NOT_SEARCHABLE",
  /** A stored block's height disagrees with its place in the chain. */
  INCONSISTENT_STORE = "BRIDGE_SPV_INCONSISTENT_STORE",
  /** A hex string argument is not 64 hex digits (a Bitcoin hash). */
  BAD_HASH_STRING = "BRIDGE_PEGIN_BAD_HASH_STRING",
  /** `receiveHeaders` with an element that is not 80 bytes. */
  BAD_HEADER_SIZE = "BRIDGE_SPV_BAD_HEADER_SIZE",
  /** A merkle branch of more than 32 hashes, or whose path has more bits than hashes. */
  BAD_MERKLE_BRANCH = "BRIDGE_SPV_BAD_MERKLE_BRANCH",
  /** `getBtcBlockchainBlockHashAtDepth` outside 0 … best − initial. */
  DEPTH_OUT_OF_RANGE = "BRIDGE_PEGIN_DEPTH_OUT_OF_RANGE",
}

export type PeginErrorType =
  | {code: PeginErrorCode.BAD_PARTIAL_MERKLE_TREE; reason: string}
  | {code: PeginErrorCode.BAD_TRANSACTION; reason: string}
  | {code: PeginErrorCode.HEIGHT_NOT_SEARCHABLE; height: number; limit: number}
  | {code: PeginErrorCode.INCONSISTENT_STORE; hash: string; height: number}
  | {code: PeginErrorCode.BAD_HASH_STRING; value: string}
  | {code: PeginErrorCode.BAD_HEADER_SIZE; index: number; length: number}
  | {code: PeginErrorCode.BAD_MERKLE_BRANCH; hashes: number; path: number}
  | {code: PeginErrorCode.DEPTH_OUT_OF_RANGE; depth: number; maxDepth: number};

/** A light-client query or peg-in registration that fails the Bridge call. */
export class PeginError extends NodeError<PeginErrorType> {}
