/**
 * Why a submission or a development control failed. RPC answers -33000 with the message for the
 * submission codes (rskj's wording, docs/protocol/mining-rpc.md §3) and maps NOT_ALLOWED to an invalid-parameter error.
 */
import {NodeError} from "@xchain/utils";
import {MinerErrorCode} from "./types.ts";

/** Each code with its metadata. */
export type MinerErrorType =
  /** `hash` is the 32 bytes after the last `RSKBLOCK:` (hex), absent when the coinbase has no such tag. */
  | {code: MinerErrorCode.WORK_NOT_FOUND; hash?: string}
  | {code: MinerErrorCode.BAD_BITCOIN_DATA; reason: string}
  /** `reason` is the code of the rule the sealed block broke (`MM_POW_ABOVE_TARGET`, `HEADER_…`, `BLOCK_…`). */
  | {code: MinerErrorCode.INVALID_BLOCK; reason: string; detail: string; blockHash?: string}
  | {code: MinerErrorCode.RATE_LIMITED; retryAfterMs: number}
  | {code: MinerErrorCode.NOT_ALLOWED; reason: string}
  | {code: MinerErrorCode.NO_SOLUTION; attempts: number}
  /** `reason` says why the node is not synced. */
  | {code: MinerErrorCode.NOT_SYNCED; reason: string}
  | {code: MinerErrorCode.MINING_DISABLED};

/** Throws MINING_DISABLED unless the node mines (`miner.server.enabled`). */
export function requireMiningServer(options: {server: {enabled: boolean}}): void {
  if (!options.server.enabled) throw new MinerError({code: MinerErrorCode.MINING_DISABLED});
}

/** A failed submission or development control. */
export class MinerError extends NodeError<MinerErrorType> {
  constructor(type: MinerErrorType) {
    super(type, describe(type));
  }
}

function describe(t: MinerErrorType): string {
  switch (t.code) {
    case MinerErrorCode.WORK_NOT_FOUND:
      return t.hash === undefined
        ? "Cannot publish block, the coinbase has no RSKBLOCK: tag followed by 32 bytes"
        : `Cannot publish block, could not find hash 0x${t.hash} in the cache`;
    case MinerErrorCode.BAD_BITCOIN_DATA:
      return `Invalid Bitcoin data supplied by miner: ${t.reason}`;
    case MinerErrorCode.INVALID_BLOCK:
      return `Invalid block supplied by miner: ${t.reason}: ${t.detail}`;
    case MinerErrorCode.RATE_LIMITED:
      return "Cannot publish block, block submission rate limit exceeded";
    case MinerErrorCode.NOT_ALLOWED:
      return t.reason;
    case MinerErrorCode.NO_SOLUTION:
      return `no nonce reached the target after ${t.attempts} attempts`;
    case MinerErrorCode.NOT_SYNCED:
      return (
        `no mining work: ${t.reason}, so a block mined now could be on a dead fork; ` +
        "add peers with p2p.bootnodes (--p2p.bootnodes), or set miner.allowSolo = true (--miner.allowSolo) to mine alone"
      );
    case MinerErrorCode.MINING_DISABLED:
      return (
        "mining is disabled on this node (miner.server.enabled = false): it serves no merged-mining work, " +
        "takes no solution and mines no block; send miners and mining requests to a mining node"
      );
  }
}
