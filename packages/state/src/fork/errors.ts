/**
 * How reading a fork's upstream fails (docs/forking.md §1). Every error names the upstream by its redacted URL
 * (no user, password, query or API-key path segment) and, when one value was being read, its key: `account
 * 0x…`, `storage 0x… slot 0x…`, `code 0x…`, `block 123`.
 */
import {NodeError} from "@xchain/utils";

export enum ForkErrorCode {
  /** The upstream could not be reached, or kept failing transiently (429, -32005, 5xx, timeouts), after every retry. */
  UPSTREAM_UNREACHABLE = "FORK_UPSTREAM_UNREACHABLE",
  /** The upstream answered an HTTP status that is not retried (400, 401, 404...). */
  UPSTREAM_HTTP_STATUS = "FORK_UPSTREAM_HTTP_STATUS",
  /** The upstream's answer is not a JSON-RPC answer, or not the value asked for (a malformed quantity, a hash of the wrong length...). */
  UPSTREAM_BAD_ANSWER = "FORK_UPSTREAM_BAD_ANSWER",
  /** The upstream answered a JSON-RPC error that is not a rate limit. */
  UPSTREAM_ERROR_ANSWER = "FORK_UPSTREAM_ERROR_ANSWER",
  /** The upstream does not serve a method a read needs (rskj's `rsk_getStorageBytesAt`, off by default). */
  UPSTREAM_METHOD_UNAVAILABLE = "FORK_UPSTREAM_METHOD_UNAVAILABLE",
  /** The fork block is not on the upstream (unknown hash, a number past its head, or reorganized away). */
  FORK_BLOCK_NOT_FOUND = "FORK_BLOCK_NOT_FOUND",
  /**
   * Another upstream (anvil_reset with a `jsonRpcUrl`, anvil_setRpcUrl) is not the fork's chain: its chain id
   * differs from the one the fork was started on (docs/forking.md §8).
   */
  UPSTREAM_MISMATCH = "FORK_UPSTREAM_MISMATCH",
  /** A block hash below the fork block was asked for a number above it. */
  BLOCK_ABOVE_FORK = "FORK_BLOCK_ABOVE_FORK",
  /** `verify = "on"` and the upstream serves no `eth_getProof` (rskj). */
  PROOFS_UNAVAILABLE = "FORK_PROOFS_UNAVAILABLE",
  /** A fetched account, slot or code does not verify against the fork block's state root: refused, not cached. */
  PROOF_INVALID = "FORK_PROOF_INVALID",
  /** Offline, and the cache does not hold the value (or the upstream's record, or the fork block). */
  OFFLINE_MISS = "FORK_OFFLINE_MISS",
  /**
   * A request forwarded to the upstream (history at or below the fork block, docs/forking.md §5) was answered
   * a JSON-RPC error: relayed to the client with the upstream's code, message and data.
   */
  FORWARDED_ERROR = "FORK_FORWARDED_ERROR",
}

export type ForkErrorType =
  | {code: ForkErrorCode.UPSTREAM_UNREACHABLE; url: string; key: string; attempts: number; reason: string}
  | {code: ForkErrorCode.UPSTREAM_HTTP_STATUS; url: string; key: string; status: number; body: string}
  | {code: ForkErrorCode.UPSTREAM_BAD_ANSWER; url: string; key: string; reason: string}
  | {
      code: ForkErrorCode.UPSTREAM_ERROR_ANSWER;
      url: string;
      key: string;
      rpcCode: unknown;
      rpcMessage: string;
      rpcData?: unknown;
    }
  | {code: ForkErrorCode.UPSTREAM_METHOD_UNAVAILABLE; url: string; key: string; method: string; rpcMessage: string}
  | {code: ForkErrorCode.FORK_BLOCK_NOT_FOUND; url: string; block: string}
  | {code: ForkErrorCode.UPSTREAM_MISMATCH; url: string; chainId: string; forkChainId: string}
  | {code: ForkErrorCode.BLOCK_ABOVE_FORK; number: number; forkNumber: number}
  | {code: ForkErrorCode.PROOFS_UNAVAILABLE; url: string; clientVersion: string}
  | {code: ForkErrorCode.PROOF_INVALID; url: string; key: string; reason: string}
  | {code: ForkErrorCode.OFFLINE_MISS; key: string; chainId: string; forkBlock: string}
  | {
      code: ForkErrorCode.FORWARDED_ERROR;
      url: string;
      method: string;
      rpcCode: number;
      rpcMessage: string;
      /** The error's data as the upstream sent it, JSON-encoded unless it was a string (a revert's payload). */
      rpcData: string | undefined;
    };

/** Reading the fork's upstream (or its cache) failed; the message names the upstream and the key. */
export class ForkError extends NodeError<ForkErrorType> {}
