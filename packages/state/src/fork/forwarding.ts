/**
 * The history a fork forwards to its upstream (docs/forking.md §5): which methods, where their block
 * reference sits (the rpc routes by it), which answers are immutable and so kept in the disk cache, and the
 * upstream's name of a method where its dialect differs. An answer is immutable when it is pinned at or
 * below the fork block F (by number or by a block hash) or is a block by hash; a transaction or receipt by
 * hash only when its block is at or below F (above F the upstream may still reorganize it away).
 */
import {keccak256, utf8ToBytes} from "@xchain/utils";
import type {UpstreamDialect} from "./dialect.ts";
import {ForkError, ForkErrorCode} from "./errors.ts";

/** Where a forwarded method names its block, and how the rpc decides to forward it. */
export type ForwardRule =
  /**
   * A block reference (number, tag, hash or EIP-1898 object) at `param`: forwarded below F, and at F too
   * for `objects` (the fork's block F holds no transactions of the upstream's: block, transaction,
   * receipt, uncle and trace objects come from the upstream); a hash the local chain does not hold above F.
   */
  | {kind: "block"; param: number; objects: boolean}
  /** A block hash at `param`: forwarded unless the local chain holds that block above F. */
  | {kind: "blockHash"; param: number}
  /** A transaction hash at `param`: forwarded unless the local chain or txpool holds it. */
  | {kind: "transaction"; param: number}
  /** eth_getLogs' filter: a range split at F, a block hash as `blockHash`. */
  | {kind: "logs"}
  /** trace_filter's range: forwarded when it ends at or below F. */
  | {kind: "traceFilter"};

const objectsAt = (param: number): ForwardRule => ({kind: "block", param, objects: true});
/** Below F only: state (at F the fork's own state is the upstream's through the base), and raw headers. */
const stateAt = (param: number): ForwardRule => ({kind: "block", param, objects: false});
const byBlockHash = (param: number): ForwardRule => ({kind: "blockHash", param});
const byTransaction = (param: number): ForwardRule => ({kind: "transaction", param});

/** Every method a fork forwards, by wire name. */
export const FORWARDED_METHODS: Readonly<Record<string, ForwardRule>> = {
  eth_getBlockByNumber: objectsAt(0),
  eth_getBlockByHash: byBlockHash(0),
  eth_getBlockTransactionCountByNumber: objectsAt(0),
  eth_getBlockTransactionCountByHash: byBlockHash(0),
  eth_getTransactionByBlockNumberAndIndex: objectsAt(0),
  eth_getTransactionByBlockHashAndIndex: byBlockHash(0),
  eth_getUncleCountByBlockNumber: objectsAt(0),
  eth_getUncleCountByBlockHash: byBlockHash(0),
  eth_getUncleByBlockNumberAndIndex: objectsAt(0),
  eth_getUncleByBlockHashAndIndex: byBlockHash(0),
  eth_getBlockReceipts: objectsAt(0),
  eth_getTransactionByHash: byTransaction(0),
  eth_getTransactionReceipt: byTransaction(0),
  debug_traceTransaction: byTransaction(0),
  debug_traceBlockByHash: byBlockHash(0),
  debug_traceBlockByNumber: objectsAt(0),
  trace_transaction: byTransaction(0),
  trace_block: objectsAt(0),
  trace_filter: {kind: "traceFilter"},
  eth_getLogs: {kind: "logs"},
  eth_getBalance: stateAt(1),
  eth_getCode: stateAt(1),
  eth_getTransactionCount: stateAt(1),
  eth_getStorageAt: stateAt(2),
  eth_call: stateAt(1),
  eth_estimateGas: stateAt(1),
  debug_traceCall: stateAt(1),
  xchain_getStorageBytesAt: stateAt(2),
  // Rootstock's raw data (rskj's rsk_* names): an upstream header below F; at F the anchor's is the fork's own.
  xchain_getRawBlockHeaderByNumber: stateAt(0),
  xchain_getRawBlockHeaderByHash: byBlockHash(0),
  xchain_getRawTransactionReceiptByHash: byTransaction(0),
  xchain_getTransactionReceiptNodesByHash: byBlockHash(0),
  // The upstream's state at F is the header's, which the fork's own state at F is not (it holds the
  // REMASC sender's nonce and the dev accounts): the proof of F is the upstream's.
  eth_getProof: objectsAt(2),
};

/** The upstream's name of `method` where its dialect names it otherwise: rskj serves xchain's `xchain_*` as `rsk_*`. */
export function upstreamMethod(dialect: UpstreamDialect, method: string): string {
  return dialect === "rskj" && method.startsWith("xchain_") ? `rsk_${method.slice("xchain_".length)}` : method;
}

/** One forwarded request: its key, and where its answer is kept when it is immutable. */
export interface ForwardedRequest {
  /** `method params` as sent: concurrent identical requests share one fetch. */
  readonly key: string;
  /** How errors and logs name it (the key, shortened). */
  readonly name: string;
  /** The cache key of an answer that may be kept; undefined: never kept (offline refuses it). */
  readonly cacheKey: Uint8Array | undefined;
  /** Whether this answer is kept (an absent block, a transaction above F are not). */
  keeps(result: unknown): boolean;
}

/** `method(params)` forwarded on a fork at block `forkNumber`. */
export function forwardedRequest(method: string, params: readonly unknown[], forkNumber: number): ForwardedRequest {
  const key = `${method} ${JSON.stringify(params)}`;
  const name = key.length > 200 ? `${key.slice(0, 200)}…` : key;
  const rule = FORWARDED_METHODS[method];
  const found = (result: unknown) => result !== null && result !== undefined;
  let keeps: ((result: unknown) => boolean) | undefined;
  if (rule?.kind === "blockHash") keeps = found;
  else if (rule?.kind === "block" && pinnedAtOrBelow(params[rule.param], forkNumber)) keeps = found;
  else if (rule?.kind === "transaction") keeps = (result) => minedAtOrBelow(result, forkNumber);
  else if (rule?.kind === "logs" || rule?.kind === "traceFilter") {
    const filter = params[0] as Record<string, unknown> | undefined;
    const byHash = rule.kind === "logs" && typeof filter?.blockHash === "string";
    const to = numberOf(filter?.toBlock);
    const range = numberOf(filter?.fromBlock) !== undefined && to !== undefined && to <= forkNumber;
    if (byHash || range) keeps = found;
  }
  return {
    key,
    name,
    cacheKey: keeps && keccak256(utf8ToBytes(key)),
    keeps: keeps ?? (() => false),
  };
}

/** Whether a block reference is a number at most `forkNumber` or a block hash (EIP-1898 forms included). */
function pinnedAtOrBelow(ref: unknown, forkNumber: number): boolean {
  if (typeof ref === "string" && ref.length === 66) return true;
  if (typeof ref === "object" && ref !== null && typeof (ref as {blockHash?: unknown}).blockHash === "string") {
    return true;
  }
  const number = numberOf(typeof ref === "object" && ref !== null ? (ref as {blockNumber?: unknown}).blockNumber : ref);
  return number !== undefined && number <= forkNumber;
}

/** A block number, hex (or an integer, as parity traces give it); undefined for a tag or anything else. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined;
  return typeof value === "string" && /^0x[0-9a-fA-F]{1,13}$/.test(value) ? Number(value) : undefined;
}

/**
 * Whether an answer about a transaction is of one mined at or below F: a transaction or receipt object's
 * `blockNumber`, each entry's of a trace_transaction list. A debug trace names no block: never kept.
 */
function minedAtOrBelow(result: unknown, forkNumber: number): boolean {
  const entries = Array.isArray(result) ? result : [result];
  return (
    entries.length > 0 &&
    entries.every((entry) => {
      const number = numberOf((entry as {blockNumber?: unknown} | null)?.blockNumber);
      return number !== undefined && number <= forkNumber;
    })
  );
}

/** An upstream's error answer to a forwarded request as the error relayed to the client; other failures as they are. */
export function relayed(e: unknown, method: string): unknown {
  if (!(e instanceof ForkError) || e.type.code !== ForkErrorCode.UPSTREAM_ERROR_ANSWER) return e;
  const {url, rpcCode, rpcMessage, rpcData} = e.type;
  return new ForkError(
    {
      code: ForkErrorCode.FORWARDED_ERROR,
      url,
      method,
      rpcCode: Number.isSafeInteger(rpcCode) ? (rpcCode as number) : -32000,
      rpcMessage,
      rpcData: rpcData === undefined || typeof rpcData === "string" ? rpcData : JSON.stringify(rpcData),
    },
    rpcMessage,
  );
}
