/**
 * Block references resolved against the chain. `pending` reads as `latest`: the node keeps no
 * pending block (docs/rpc.md §4.7 lists `pending` as unsupported for the block methods; the txpool
 * answers the pending nonce separately). A state read at a block that does not exist is -32600
 * `Block … not found` (docs/protocol/errors.md); a block lookup that finds nothing is null (docs/rpc.md §7 rule 2).
 */
import type {ChainReader} from "@xchain/chain";
import type {Block, BlockHeader} from "@xchain/primitives";
import type {StateReader} from "@xchain/state";
import {equalBytes} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import {type BlockNumberOrTag, type BlockRef, describeBlockRef} from "../params/blockRef.ts";

/** The canonical height a number or tag names (it may be above the head). */
export function blockNumberOf(chain: Pick<ChainReader, "head">, ref: BlockNumberOrTag): number {
  if (ref.kind === "number") return ref.number;
  return ref.tag === "earliest" ? 0 : chain.head().number;
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
): Promise<BlockHeader | undefined> {
  // The head is in memory: the tags that name it need no lookup in the canonical index.
  if (ref.kind === "tag" && ref.tag !== "earliest") return chain.head().header;
  if (ref.kind !== "hash") return chain.getHeaderByNumber(blockNumberOf(chain, ref));
  const header = await chain.getHeader(ref.hash);
  if (!header) return undefined;
  if (ref.requireCanonical && !(await isCanonical(chain, header))) {
    throw RpcError.invalidRequest(`Block ${describeBlockRef(ref)} is not canonical`);
  }
  return header;
}

/** The block a number or tag names, or undefined. */
export function findBlock(
  chain: Pick<ChainReader, "head" | "getBlockByNumber">,
  ref: BlockNumberOrTag,
): Promise<Block | undefined> {
  return chain.getBlockByNumber(blockNumberOf(chain, ref));
}

/** The header a reference names, or -32600 `Block … not found` (docs/protocol/errors.md). */
export async function requireHeader(
  chain: Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber">,
  ref: BlockRef,
): Promise<BlockHeader> {
  const header = await findHeader(chain, ref);
  if (!header) throw RpcError.invalidRequest(`Block ${describeBlockRef(ref)} not found`);
  return header;
}

/** The state after the block a reference names. */
export function stateAt(
  chain: Pick<ChainReader, "head" | "getHeader" | "getHeaderByNumber" | "stateAfter">,
  ref: BlockRef,
): Promise<StateReader> {
  // The head's state without a detour through the header lookup (most reads are at the head).
  if (ref.kind === "tag" && ref.tag !== "earliest") return chain.stateAfter(chain.head().header);
  return requireHeader(chain, ref).then((header) => chain.stateAfter(header));
}
