/**
 * The anchor of a fork of a live upstream (docs/forking.md §4.2): the fork block's header as stored at
 * height F, and BLOCKHASH at and below F, both from the upstream reader (`ForkSource`).
 *
 * - A Rootstock upstream (rskj, xchain: its block objects carry `paidFees` and `minimumGasPrice`) gives
 *   its real header, rebuilt from the block object (`headerFromBlockJson`, under the fork chainspec's
 *   encoding heights, which are the upstream network's) and proven by hashing to the fork block's hash.
 * - An Ethereum upstream (geth, anvil) has a header no Rootstock encoding reproduces: the anchor is a
 *   stand-in carrying its parent hash, number, timestamp, gas limit, miner and state root (difficulty 0
 *   after the merge → the fork's minimum), with empty roots and no fees. Its hash differs from the
 *   upstream's, so block F+1 names the stand-in as its parent; BLOCKHASH(F) still answers the upstream's.
 */
import type {Chainspec} from "@xchain/chainspec";
import type {ForkAncestry} from "@xchain/execution";
import {BlockHeader, EMPTY_UNCLES_HASH, LOGS_BLOOM_LENGTH} from "@xchain/primitives";
import {
  EMPTY_TRIE_ROOT,
  type ForkHeader,
  type ForkSource,
  type InitialForkAccount,
  type StateBase,
} from "@xchain/state";
import {hexToBytesOrNull} from "@xchain/utils";
import {buildForkAnchor, type ForkAnchor, type ForkRootSource} from "./anchor.ts";
import {headerFromBlockJson} from "./headerFromBlockJson.ts";

/** Which kind of chain the upstream is, from its block object. */
export type UpstreamFamily = "rootstock" | "ethereum";

/** Rootstock block objects carry the fee fields of its header (docs/protocol/json-rpc.md §5.1); Ethereum's do not. */
export function upstreamFamily(block: Record<string, unknown>): UpstreamFamily {
  return block.paidFees !== undefined && block.minimumGasPrice !== undefined ? "rootstock" : "ethereum";
}

/** The stand-in's merged-mining fields: the genesis's single zero bytes (nothing merge-mined it here). */
const ZERO_BYTE = Uint8Array.of(0);

/**
 * The header stored at height F for the upstream's fork block `forkHeader`, under the fork's rules:
 * the real one for a Rootstock upstream (throws `BlockJsonError` when it does not hash to the fork
 * block's hash), a stand-in for an Ethereum one.
 */
export function anchorHeader(forkHeader: ForkHeader, chainspec: Chainspec): BlockHeader {
  if (upstreamFamily(forkHeader.json) === "rootstock") {
    return headerFromBlockJson(forkHeader.json, forkHeader.number, chainspec);
  }
  const {number} = forkHeader;
  const miner = typeof forkHeader.json.miner === "string" ? hexToBytesOrNull(forkHeader.json.miner.slice(2)) : null;
  return BlockHeader.fromValues(
    {
      parentHash: forkHeader.parentHash,
      unclesHash: EMPTY_UNCLES_HASH,
      coinbase: miner?.length === 20 ? miner : new Uint8Array(20),
      stateRoot: forkHeader.stateRoot,
      txTrieRoot: EMPTY_TRIE_ROOT,
      receiptTrieRoot: EMPTY_TRIE_ROOT,
      logsBloom: new Uint8Array(LOGS_BLOOM_LENGTH),
      difficulty: forkHeader.difficulty === 0n ? chainspec.minimumDifficulty(number) : forkHeader.difficulty,
      number,
      gasLimit: forkHeader.gasLimit,
      gasUsed: 0n,
      timestamp: Number(forkHeader.timestamp),
      extraData: new Uint8Array(0),
      paidFees: 0n,
      minimumGasPrice: 0n,
      uncleCount: 0,
      ...(chainspec.hasUmmRoot(number) ? {ummRoot: new Uint8Array(0)} : {}),
      mergedMining: {bitcoinHeader: ZERO_BYTE, merkleProof: ZERO_BYTE, coinbase: ZERO_BYTE},
    },
    chainspec,
  );
}

/** BLOCKHASH at and below the fork block: the upstream's hashes, through the source's cache. */
export function upstreamAncestry(source: Pick<ForkSource, "header" | "blockHash">): ForkAncestry {
  const forkNumber = source.header.number;
  return {
    number: forkNumber,
    hashAt: async (blockNumber) => (blockNumber > forkNumber ? undefined : source.blockHash(blockNumber)),
  };
}

/** What `buildUpstreamAnchor` reads from besides the state. */
export interface UpstreamAnchorInput {
  source: Pick<ForkSource, "header" | "chainId">;
  /** The upstream's state at the fork block (`forkSourceBase(source)`). */
  base: StateBase;
  /** The fork's rules (`forkChainspec`): the anchor header is encoded under them. */
  chainspec: Chainspec;
  /** Accounts the fork starts with besides the REMASC sender (the dev wallet's). */
  accounts?: Iterable<[Uint8Array, InitialForkAccount]>;
}

/** The anchor of a fork of the source's fork block (nothing is written: `Chain.openFork` stores it). */
export function buildUpstreamAnchor(input: UpstreamAnchorInput, state: ForkRootSource): Promise<ForkAnchor> {
  const {source, base, chainspec} = input;
  return buildForkAnchor(
    {
      upstreamChainId: Number(source.chainId),
      header: anchorHeader(source.header, chainspec),
      hash: source.header.hash,
      base,
      ...(input.accounts ? {accounts: input.accounts} : {}),
    },
    state,
  );
}
