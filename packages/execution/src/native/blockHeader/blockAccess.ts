/**
 * How the BlockHeader contract finds a block and reads its merged-mining and uncle fields, as rskj's
 * `BlockAccessor`, `IndexedBlockStore.getBlockAtDepthStartingAt`, `GetMergedMiningTags` and
 * `GetUncleCoinbaseAddress` do (docs/protocol/native-contracts.md §3).
 */
import type {BlockHeader} from "@xchain/primitives";
import {lastIndexOfBytes, utf8ToBytes} from "@xchain/utils";
import {nativeContractUnavailable} from "../../precompiles/unavailable.ts";
import type {ChainHeaders} from "../../types.ts";
import {refuse} from "../dispatch/nativeMethods.ts";
import type {NativeCallContext} from "../dispatch/types.ts";

/** rskj's name of the contract. */
export const NAME = "BlockHeader";
/** No block deeper than REMASC's maturity is answered (rskj's MAX_DEPTH). */
export const MAX_DEPTH = 4000n;
const SHORT_MIN = -32768n;
const SHORT_MAX = 32767n;
/** The merged-mining tag and the 32-byte hash that follows it in the Bitcoin coinbase. */
const RSK_TAG = utf8ToBytes("RSKBLOCK:");
const HASH_FOR_MERGED_MINING_LENGTH = 32;

/** A block found at a depth, with the chain its uncles and total difficulty are read from. */
export interface BlockAt {
  header: BlockHeader;
  chain: ChainHeaders;
}

/** A `short` argument, or undefined outside −32768…32767 (rskj's `shortValueExact` that answers empty bytes). */
function shortValue(value: bigint): number | undefined {
  return value < SHORT_MIN || value > SHORT_MAX ? undefined : Number(value);
}

/**
 * The block `depth` blocks below the executing block's parent, or undefined for rskj's empty answer (a depth
 * outside a short, at or beyond 4,000, or past the chain's start; genesis only at depth 0 from block 1).
 * A negative depth fails. On a fork, a block at or below the fork block is the upstream's, which this node
 * does not hold: the message stops with `NativeContractUnavailableError` (docs/forking.md §6).
 */
export async function blockAtDepth(
  address: Uint8Array,
  depth: bigint,
  context: NativeCallContext,
): Promise<BlockAt | undefined> {
  const d = shortValue(depth);
  if (d === undefined) return undefined;
  if (d < 0) refuse(NAME, "blockDepth", `invalid block depth '${d}' (should be a non-negative value)`);
  if (BigInt(d) >= MAX_DEPTH) return undefined;
  const parentNumber = context.block.number - 1;
  if (d > 0 && parentNumber <= d) return undefined;
  const number = parentNumber - d;
  const fork = context.chain.forkAncestry;
  if (fork !== undefined && number <= fork.number) {
    throw nativeContractUnavailable(
      address,
      NAME,
      `block ${number} is at or below the fork block ${fork.number}, whose headers are the upstream's`,
    );
  }
  const {headers} = context.chain;
  const header = await headers.headerAt(number);
  return header && {header, chain: headers};
}

/**
 * What follows the last "RSKBLOCK:" tag and its 32-byte hash in the compressed Bitcoin coinbase: empty when
 * the tag is absent. A header without the field (rskj's null) or whose tag is too close to its end fails,
 * as rskj's list and copy calls throw there.
 */
export function mergedMiningTags(header: BlockHeader): Uint8Array {
  const coinbase = header.mergedMining?.coinbase;
  if (coinbase === undefined || coinbase.length === 0)
    refuse(NAME, "getMergedMiningTags", "the block has no merged-mining coinbase");
  const position = lastIndexOfBytes(coinbase, RSK_TAG);
  if (position === -1) return new Uint8Array(0);
  const start = position + RSK_TAG.length + HASH_FOR_MERGED_MINING_LENGTH;
  if (start > coinbase.length) refuse(NAME, "getMergedMiningTags", "the tag's hash runs past the coinbase's end");
  return coinbase.slice(start);
}

/** The coinbase of the block's uncle `index`: empty past the uncles or outside a short; a negative index fails. */
export async function uncleCoinbase({header, chain}: BlockAt, index: bigint): Promise<Uint8Array> {
  const uncles = await chain.uncles(header.hash());
  if (uncles === undefined) return new Uint8Array(0);
  const i = shortValue(index);
  if (i === undefined) return new Uint8Array(0);
  if (i < 0) refuse(NAME, "getUncleCoinbaseAddress", `invalid uncle index '${i}' (should be a non-negative value)`);
  return uncles[i]?.coinbase ?? new Uint8Array(0);
}
