/**
 * The Bridge's Bitcoin light client (docs/protocol/native-contracts.md §10.5; rskj's
 * `BridgeSupport.receiveHeader(s)`, the `getBtcBlockchain*` getters and `getBtcTransactionConfirmations`)
 * over the block store and chain of this folder. Hashes in and out are in display (RPC) byte order.
 */
import {merkleParent} from "@xchain/merged-mining";
import {equalBytes, reverseBytes} from "@xchain/utils";
import {decodeRlpInteger, encodeRlpInteger} from "../serialization.ts";
import type {BridgeStorage} from "../storage.ts";
import {BridgeKey} from "../storageKeys.ts";
import {blockHashOf, type StoredBlock} from "../storedBlock.ts";
import {BtcBlockChain, parentHashOf} from "./blockChain.ts";
import {type BlockStoreActivations, BridgeBlockStore} from "./blockStore.ts";
import {BtcHeaderError, PeginError, PeginErrorCode} from "./errors.ts";

/** What `receiveHeader` answers (`BridgeSupport.RECEIVE_HEADER_*`, Bridge's size code). */
export const ReceiveHeaderResult = {
  OK: 0,
  CALLED_TOO_SOON: -1,
  BLOCK_TOO_OLD: -2,
  PREVIOUS_NOT_FOUND: -3,
  ALREADY_STORED: -4,
  SIZE_MISMATCH: -20,
  UNEXPECTED: -99,
} as const;

/** What `getBtcTransactionConfirmations` answers besides a count (`BTC_TRANSACTION_CONFIRMATION_*`). */
export const ConfirmationsResult = {
  UNKNOWN_BLOCK: -1,
  NOT_IN_BEST_CHAIN: -2,
  INCONSISTENT_BLOCK: -3,
  BLOCK_TOO_OLD: -4,
  INVALID_MERKLE_BRANCH: -5,
} as const;

/** Deepest block `getBtcTransactionConfirmations` looks at. */
export const CONFIRMATIONS_MAX_DEPTH = 4320;
const CONFIRMATIONS_BASE_GAS = 27_000n;
const CONFIRMATIONS_GAS_PER_DEPTH = 315n;
const CONFIRMATIONS_GAS_PER_HASH = 144n;
const HEADER_SIZE = 80;
/** BIP-37's bound on a merkle branch, as rskj's `MerkleBranch` checks it. */
const MAX_BRANCH_HASHES = 32;

/** The activations the light client depends on. */
export interface LightClientActivations extends BlockStoreActivations {
  /** RSKIP-434: lifts mainnet's `blockWithTooMuchChainWorkHeight` cutoff. */
  tooMuchChainWorkFixed: boolean;
}

/** bitcoinj's `combineLeftRight` on display-order hashes. */
const combine = (left: Uint8Array, right: Uint8Array): Uint8Array =>
  reverseBytes(merkleParent(reverseBytes(left), reverseBytes(right)));

/** Java's `32 - Integer.numberOfLeadingZeros(path)` for a 32-bit int. */
const significantBits = (path: number): number => 32 - Math.clz32(path);

export class BtcLightClient {
  private constructor(
    private readonly storage: BridgeStorage,
    private readonly store: BridgeBlockStore,
    private readonly chain: BtcBlockChain,
    private readonly activations: LightClientActivations,
  ) {}

  /** rskj's `ensureBtcBlockChain`: opens (and on first use initializes) the store in `storage`. */
  static async open(storage: BridgeStorage, activations: LightClientActivations): Promise<BtcLightClient> {
    const store = await BridgeBlockStore.open(storage, activations);
    return new BtcLightClient(storage, store, new BtcBlockChain(store, store.rules), activations);
  }

  /** `cannotProcessNextBlock`: mainnet before RSKIP-434 refuses headers from `tooMuchChainWorkHeight` on. */
  private tooMuchWork(previous: StoredBlock): boolean {
    const cutoff = this.store.rules.tooMuchChainWorkHeight;
    return cutoff !== undefined && !this.activations.tooMuchChainWorkFixed && previous.height + 1 >= cutoff;
  }

  /** `receiveHeader` (RSKIP-200): one header from anyone, at most one per 300 s of RSK block time. */
  async receiveHeader(header: Uint8Array, rskBlockTimestamp: bigint): Promise<number> {
    if (header.length !== HEADER_SIZE) return ReceiveHeaderResult.SIZE_MISMATCH;
    if ((await this.store.get(blockHashOf(header))) !== undefined) return ReceiveHeaderResult.ALREADY_STORED;
    const last = await this.storage.get(BridgeKey.receiveHeadersLastTimestamp);
    if (last.length > 0) {
      const lastTimestamp = decodeRlpInteger("receiveHeadersLastTimestamp", last);
      if (rskBlockTimestamp - lastTimestamp < BigInt(this.storage.constants.minSecondsBetweenCallsReceiveHeader)) {
        return ReceiveHeaderResult.CALLED_TOO_SOON;
      }
    }
    const previous = await this.store.get(reverseBytes(header.subarray(4, 36)));
    if (previous === undefined) return ReceiveHeaderResult.PREVIOUS_NOT_FOUND;
    if ((await this.bestChainHeight()) - (previous.height + 1) > this.storage.constants.maxDepthBlockchainAccepted) {
      return ReceiveHeaderResult.BLOCK_TOO_OLD;
    }
    if (this.tooMuchWork(previous)) return ReceiveHeaderResult.UNEXPECTED;
    try {
      await this.chain.add(header);
    } catch (e) {
      if (e instanceof BtcHeaderError) return ReceiveHeaderResult.UNEXPECTED;
      throw e;
    }
    this.storage.put(BridgeKey.receiveHeadersLastTimestamp, encodeRlpInteger(rskBlockTimestamp));
    return ReceiveHeaderResult.OK;
  }

  /**
   * `receiveHeaders` (federators only on regtest): every header must be 80 bytes or the call fails;
   * then each is added in order and a refused one is skipped; mainnet's too-much-work cutoff stops the loop.
   */
  async receiveHeaders(headers: readonly Uint8Array[]): Promise<void> {
    const bad = headers.findIndex((h) => h.length !== HEADER_SIZE);
    if (bad >= 0) {
      throw new PeginError(
        {code: PeginErrorCode.BAD_HEADER_SIZE, index: bad, length: (headers[bad] as Uint8Array).length},
        `receiveHeaders: header ${bad} has ${(headers[bad] as Uint8Array).length} bytes, not 80`,
      );
    }
    for (const header of headers) {
      const previous = await this.store.get(reverseBytes(header.subarray(4, 36)));
      if (previous !== undefined && this.tooMuchWork(previous)) break;
      try {
        await this.chain.add(header);
      } catch (e) {
        if (!(e instanceof BtcHeaderError)) throw e;
      }
    }
  }

  async chainHead(): Promise<StoredBlock> {
    return this.store.chainHead();
  }

  async bestChainHeight(): Promise<number> {
    return (await this.store.chainHead()).height;
  }

  /** `getBtcBlockchainInitialBlockHeight`: the checkpoint's height, 0 without one. */
  initialBlockHeight(): number {
    return this.store.lowestBlock().height;
  }

  async bestBlockHeader(): Promise<Uint8Array> {
    return (await this.store.chainHead()).header;
  }

  /** The stored header with this hash; empty bytes when unknown. */
  async headerByHash(hash: Uint8Array): Promise<Uint8Array> {
    return (await this.store.get(hash))?.header ?? new Uint8Array(0);
  }

  /** The main chain's header at `height`; empty bytes when there is none or it cannot be searched (Bridge catches). */
  async headerByHeight(height: number): Promise<Uint8Array> {
    try {
      return (await this.store.atMainChainHeight(height))?.header ?? new Uint8Array(0);
    } catch (e) {
      if (e instanceof PeginError) return new Uint8Array(0);
      throw e;
    }
  }

  /** The best chain's block at `height` for a peg-in; throws PeginError where rskj fails the call (docs/protocol/native-contracts.md §10.6). */
  async mainChainBlockAt(height: number): Promise<StoredBlock> {
    const block = await this.store.atMainChainHeight(height);
    if (block === undefined) {
      throw new PeginError(
        {code: PeginErrorCode.HEIGHT_NOT_SEARCHABLE, height, limit: this.initialBlockHeight()},
        `no stored Bitcoin block at height ${height} of the best chain`,
      );
    }
    return block;
  }

  /** The parent header of the stored header with this hash; empty bytes when either is unknown. */
  async parentHeaderByHash(hash: Uint8Array): Promise<Uint8Array> {
    const block = await this.store.get(hash);
    if (block === undefined) return new Uint8Array(0);
    return (await this.store.get(parentHashOf(block)))?.header ?? new Uint8Array(0);
  }

  /** The main chain's block hash `depth` below the head; throws DEPTH_OUT_OF_RANGE outside 0 … best − initial. */
  async blockHashAtDepth(depth: number): Promise<Uint8Array> {
    const maxDepth = (await this.bestChainHeight()) - this.initialBlockHeight();
    if (depth < 0 || depth > maxDepth) {
      throw new PeginError(
        {code: PeginErrorCode.DEPTH_OUT_OF_RANGE, depth, maxDepth},
        `depth must be between 0 and ${maxDepth}, was ${depth}`,
      );
    }
    const block = await this.store.atMainChainDepth(depth);
    if (block === undefined) {
      throw new PeginError(
        {code: PeginErrorCode.DEPTH_OUT_OF_RANGE, depth, maxDepth},
        `no stored block at depth ${depth}`,
      );
    }
    return blockHashOf(block.header);
  }

  /**
   * `getBtcTransactionConfirmations`: how many blocks of the best chain confirm the block holding a
   * transaction, given the transaction's merkle branch (`hashes` bottom-up, `path` bit i set when the
   * node is the right child at level i); or a negative code. Throws for a malformed branch.
   */
  async transactionConfirmations(
    txHash: Uint8Array,
    blockHash: Uint8Array,
    path: number,
    hashes: readonly Uint8Array[],
  ): Promise<number> {
    if (hashes.length > MAX_BRANCH_HASHES || significantBits(path) > hashes.length) {
      throw new PeginError(
        {code: PeginErrorCode.BAD_MERKLE_BRANCH, hashes: hashes.length, path},
        `a merkle branch of ${hashes.length} hashes cannot have path ${path}`,
      );
    }
    const block = await this.store.get(blockHash);
    if (block === undefined) return ConfirmationsResult.UNKNOWN_BLOCK;
    const best = await this.bestChainHeight();
    if (Math.max(0, best - block.height) > CONFIRMATIONS_MAX_DEPTH) return ConfirmationsResult.BLOCK_TOO_OLD;
    try {
      const atHeight = await this.store.atMainChainHeight(block.height);
      if (atHeight === undefined || !equalBytes(atHeight.header, block.header))
        return ConfirmationsResult.NOT_IN_BEST_CHAIN;
    } catch (e) {
      if (e instanceof PeginError) return ConfirmationsResult.INCONSISTENT_BLOCK;
      throw e;
    }
    let node = txHash;
    hashes.forEach((hash, i) => {
      node = ((path >>> i) & 1) === 1 ? combine(hash, node) : combine(node, hash);
    });
    // The witness root of a registered coinbase (RSKIP-143) is not kept: only the header's root proves.
    if (!equalBytes(node, reverseBytes(block.header.subarray(36, 68))))
      return ConfirmationsResult.INVALID_MERKLE_BRANCH;
    return best - block.height + 1;
  }

  /** `getBtcTransactionConfirmationsGetCost`: 27,000 + 315 × the block's depth + 144 × the branch's hashes when the block is known and not too deep. */
  async transactionConfirmationsGas(blockHash: Uint8Array, branchHashes: number): Promise<bigint> {
    const block = await this.store.get(blockHash);
    if (block === undefined) return CONFIRMATIONS_BASE_GAS;
    const depth = Math.max(0, (await this.bestChainHeight()) - block.height);
    if (depth > CONFIRMATIONS_MAX_DEPTH) return CONFIRMATIONS_BASE_GAS;
    return (
      CONFIRMATIONS_BASE_GAS +
      BigInt(depth) * CONFIRMATIONS_GAS_PER_DEPTH +
      BigInt(branchHashes) * CONFIRMATIONS_GAS_PER_HASH
    );
  }
}
