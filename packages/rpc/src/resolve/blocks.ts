/**
 * Block references resolved against the chain. `pending` names the pending block (docs/rpc.md §4.3)
 * where a `PendingBlockSource` is given, and reads as `latest` on a node without one (no miner). A
 * state read at a block that does not exist is -32600 `Block … not found` (docs/protocol/errors.md);
 * a block lookup that finds nothing is null (docs/rpc.md §7 rule 2). `safe` and `finalized` name
 * the canonical block `safeDepth` / `finalizedDepth` below the head, genesis on a shorter chain
 * (docs/rpc.md §4.3).
 */
import type {ChainReader} from "@xchain/chain";
import type {PendingBlockSource} from "@xchain/miner";
import type {Block, BlockHeader} from "@xchain/primitives";
import type {StateReader} from "@xchain/state";
import {equalBytes} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import {
  type BlockNumberOrTag,
  type BlockRef,
  describeBlockRef,
  heightAt,
  isHeadTag,
  type TagDepths,
} from "../params/blockRef.ts";

/** Builds the pending block; undefined on a node without a miner, where `pending` reads as `latest`. */
export type PendingSource = PendingBlockSource | undefined;

/** Whether `ref` is the `pending` tag. */
export function isPendingRef(ref: BlockRef): boolean {
  return ref.kind === "tag" && ref.tag === "pending";
}

/** The head's header when `ref` is `latest`: no lookup, no promise. */
export function headHeaderFor(chain: Pick<ChainReader, "head">, ref: BlockRef): BlockHeader | undefined {
  return ref.kind === "tag" && ref.tag === "latest" ? chain.head().header : undefined;
}

/** The pending block when `ref` names it and the node builds one. */
async function pendingBlockFor(ref: BlockRef, pending: PendingSource): Promise<Block | undefined> {
  return pending && isPendingRef(ref) ? (await pending.pendingBlock()).block : undefined;
}

/** The canonical height a number or tag names (it may be above the head). */
export function blockNumberOf(chain: Pick<ChainReader, "head">, ref: BlockNumberOrTag, depths: TagDepths): number {
  return ref.kind === "number" ? ref.number : heightAt(chain.head().number, ref, depths);
}

/** Whether `header` is on the canonical chain. */
export async function isCanonical(
  chain: Pick<ChainReader, "getHeaderByNumber">,
  header: BlockHeader,
): Promise<boolean> {
  const canonical = await chain.getHeaderByNumber(header.number);
  return canonical !== undefined && equalBytes(canonical.hash(), header.hash());
}

/** The header a reference names, or undefined. A hash with `requireCanonical` must be canonical. */
export async function findHeader(
  chain: Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber">,
  ref: BlockRef,
  depths: TagDepths,
  pending?: PendingSource,
): Promise<BlockHeader | undefined> {
  const pendingBlock = await pendingBlockFor(ref, pending);
  if (pendingBlock) return pendingBlock.header;
  // The head is in memory: the tags that name it need no lookup in the canonical index.
  if (isHeadTag(ref)) return chain.head().header;
  if (ref.kind !== "hash") return chain.getHeaderByNumber(blockNumberOf(chain, ref, depths));
  const header = await chain.getHeader(ref.hash);
  if (!header) return undefined;
  if (ref.requireCanonical && !(await isCanonical(chain, header))) {
    throw RpcError.invalidRequest(`Block ${describeBlockRef(ref)} is not canonical`);
  }
  return header;
}

/** The block a number or tag names, or undefined. */
export async function findBlock(
  chain: Pick<ChainReader, "head" | "getBlockByNumber">,
  ref: BlockNumberOrTag,
  depths: TagDepths,
  pending?: PendingSource,
): Promise<Block | undefined> {
  return (await pendingBlockFor(ref, pending)) ?? chain.getBlockByNumber(blockNumberOf(chain, ref, depths));
}

/** The header a reference names, or -32600 `Block … not found` (docs/protocol/errors.md). */
export async function requireHeader(
  chain: Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber">,
  ref: BlockRef,
  depths: TagDepths,
  pending?: PendingSource,
): Promise<BlockHeader> {
  const header = await findHeader(chain, ref, depths, pending);
  if (!header) throw RpcError.invalidRequest(`Block ${describeBlockRef(ref)} not found`);
  return header;
}

/** The state after the block a reference names (the pending block's state is staged, not stored). */
export function stateAt(
  chain: Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber" | "stateAfter">,
  ref: BlockRef,
  depths: TagDepths,
  pending?: PendingSource,
): Promise<StateReader> {
  // The head's state without a detour through the header lookup (most reads are at the head).
  if (ref.kind === "tag" && ref.tag === "latest") return chain.stateAfter(chain.head().header);
  return requireHeader(chain, ref, depths, pending).then((header) => chain.stateAfter(header));
}
