/**
 * eth_* block and uncle queries (docs/rpc.md §4.3). A block that is not found gives null (docs/rpc.md §7
 * rule 2); an uncle is shown in the block shape without transactions (docs/rpc.md §2.3); `pending`
 * is the pending block, without number, hash, nonce and logs bloom.
 */
import {Block, type BlockHeader} from "@xchain/primitives";
import {toQuantity} from "@xchain/utils";
import {BlockJsonCache} from "../../caches/blockJsonCache.ts";
import {type BlockJson, formatBlock, formatPendingBlock} from "../../format/block.ts";
import {RawJson} from "../../jsonrpc/rawJson.ts";
import type {RpcMethod} from "../../jsonrpc/registry.ts";
import type {ModuleDeps} from "../../moduleDeps.ts";
import {type BlockNumberOrTag, blockNumberOrTag, isHeadTag, type TagDepths} from "../../params/blockRef.ts";
import {bool} from "../../params/codec.ts";
import {hash, quantityNumber} from "../../params/hex.ts";
import {method, optional, param} from "../../params/method.ts";
import {blockNumberOf, findBlock, isPendingRef} from "../../resolve/blocks.ts";

/** eth_getBlockBy*, eth_getBlockTransactionCountBy*, eth_getUncleCountBy*, eth_getUncleBy*. */
export function ethBlockMethods({
  chain,
  chainspec,
  pendingBlock,
  blockJson,
  options,
}: Pick<ModuleDeps, "chain" | "chainspec" | "pendingBlock" | "blockJson" | "options">): Record<string, RpcMethod> {
  const format = async (block: Block | undefined, full: boolean) =>
    block ? formatBlock(block, await chain.getTotalDifficulty(block.hash()), full, chainspec) : null;
  /** A stored block's JSON, from the cache or formatted once and kept (docs/rpc.md §4.3). */
  const blockByHash = async (hash: Uint8Array | undefined, full: boolean): Promise<RawJson | BlockJson | null> => {
    if (hash === undefined) return null;
    const key = BlockJsonCache.key(hash, full);
    const cached = blockJson.get(key);
    if (cached) return cached;
    const [block, totalDifficulty] = await Promise.all([chain.getBlock(hash), chain.getTotalDifficulty(hash)]);
    if (!block) return null;
    const json = formatBlock(block, totalDifficulty, full, chainspec);
    // Without its total difficulty (not stored yet), the object is not the block's final one.
    if (totalDifficulty === undefined) return json;
    const raw = new RawJson(Buffer.from(JSON.stringify(json)));
    blockJson.set(key, raw);
    return raw;
  };
  const formatByNumber = async (ref: BlockNumberOrTag, full: boolean) => {
    if (!pendingBlock || !isPendingRef(ref)) return blockByHash(await canonicalHash(chain, ref, options), full);
    const {block} = await pendingBlock.pendingBlock();
    return formatPendingBlock(block, await chain.getTotalDifficulty(block.header.parentHash), full, chainspec);
  };
  const formatUncle = async (block: Block | undefined, index: number) => {
    const uncle: BlockHeader | undefined = block?.uncles[index];
    return uncle ? format(new Block(uncle, [], []), false) : null;
  };
  return {
    /** Handler for `eth_getBlockByHash` */
    getBlockByHash: method([param("blockHash", hash), optional("fullTransactions", bool, false)], async (h, full) =>
      blockByHash(h, full),
    ),
    /** Handler for `eth_getBlockByNumber` */
    getBlockByNumber: method(
      [param("block", blockNumberOrTag), optional("fullTransactions", bool, false)],
      async (ref, full) => formatByNumber(ref, full),
    ),
    /** Handler for `eth_getBlockTransactionCountByHash` */
    getBlockTransactionCountByHash: method([param("blockHash", hash)], async (h) =>
      count(await chain.getBlock(h), "transactions"),
    ),
    /** Handler for `eth_getBlockTransactionCountByNumber` */
    getBlockTransactionCountByNumber: method([param("block", blockNumberOrTag)], async (ref) =>
      count(await findBlock(chain, ref, options, pendingBlock), "transactions"),
    ),
    /** Handler for `eth_getUncleCountByBlockHash` */
    getUncleCountByBlockHash: method([param("blockHash", hash)], async (h) => count(await chain.getBlock(h), "uncles")),
    /** Handler for `eth_getUncleCountByBlockNumber` */
    getUncleCountByBlockNumber: method([param("block", blockNumberOrTag)], async (ref) =>
      count(await findBlock(chain, ref, options, pendingBlock), "uncles"),
    ),
    /** Handler for `eth_getUncleByBlockHashAndIndex` */
    getUncleByBlockHashAndIndex: method([param("blockHash", hash), param("index", quantityNumber)], async (h, index) =>
      formatUncle(await chain.getBlock(h), index),
    ),
    /** Handler for `eth_getUncleByBlockNumberAndIndex` */
    getUncleByBlockNumberAndIndex: method(
      [param("block", blockNumberOrTag), param("index", quantityNumber)],
      async (ref, index) => formatUncle(await findBlock(chain, ref, options, pendingBlock), index),
    ),
  };
}

/** The hash of the canonical block a number or tag names (`pending` reads as `latest`), or undefined. */
async function canonicalHash(
  chain: Pick<ModuleDeps["chain"], "head" | "getHeaderByNumber">,
  ref: BlockNumberOrTag,
  depths: TagDepths,
): Promise<Uint8Array | undefined> {
  // The head is in memory: the tags that name it need no lookup in the canonical index.
  if (isHeadTag(ref)) return chain.head().hash;
  return (await chain.getHeaderByNumber(blockNumberOf(chain, ref, depths)))?.hash();
}

function count(block: Block | undefined, part: "transactions" | "uncles"): string | null {
  return block ? toQuantity(block[part].length) : null;
}
