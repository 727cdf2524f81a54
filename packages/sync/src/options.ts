/** The sync package's options: the `[sync]` table with its defaults and bounds, and the relay's. */
import {MAX_BODIES_PER_REQUEST, MAX_HEADERS_PER_REQUEST} from "@xchain/p2p/types";
import {SyncError, SyncErrorCode} from "./errors.ts";

/** The `[sync]` section of node.config.toml. */
export interface SyncOptions {
  /** Headers asked per request (at most the p2p cap). */
  headersPerRequest: number;
  /** Bodies asked per request (at most the p2p cap). */
  bodiesPerRequest: number;
  /** Body requests in flight at once, over different peers when there are several. */
  parallelBodyRequests: number;
  /** Sync starts when a peer's total difficulty is above ours and its best block is this many blocks ahead or more. */
  minBlocksBehind: number;
}

/**
 * The defaults: full header batches (the p2p cap, one round trip per 192 headers), bodies in
 * batches of 64 with 4 requests in flight (256 blocks on the way, spread over the peers), and a
 * sync only when a heavier peer is 2 or more blocks ahead (one block ahead is the relay's job: the
 * block is on its way by gossip).
 */
export const defaultSyncOptions: SyncOptions = {
  headersPerRequest: MAX_HEADERS_PER_REQUEST,
  bodiesPerRequest: 64,
  parallelBodyRequests: 4,
  minBlocksBehind: 2,
};

const BOUNDS: Record<keyof SyncOptions, [number, number]> = {
  headersPerRequest: [1, MAX_HEADERS_PER_REQUEST],
  bodiesPerRequest: [1, MAX_BODIES_PER_REQUEST],
  parallelBodyRequests: [1, 64],
  minBlocksBehind: [1, 1_000_000],
};

/** Throws `SyncError` INVALID_OPTIONS for an option that is not an integer within its bounds. */
export function checkSyncOptions(options: SyncOptions): SyncOptions {
  for (const [option, [min, max]] of Object.entries(BOUNDS)) {
    const value = options[option as keyof SyncOptions];
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new SyncError({code: SyncErrorCode.INVALID_OPTIONS, option, value, min, max});
    }
  }
  return options;
}

/** What the relay can be told; start from `defaultRelayOptions`. */
export interface RelayOptions {
  /** A peer sending the same block or transaction more often than this is reported REPEATED_MESSAGE. */
  repeatedMessageLimit: number;
  /** How many recent block and transaction hashes the relay remembers (of each). */
  recentHashes: number;
}

/** Default of `RelayOptions.repeatedMessageLimit`. */
export const DEFAULT_REPEATED_MESSAGE_LIMIT = 10;
/** Default of `RelayOptions.recentHashes`. */
export const DEFAULT_RECENT_HASHES = 4_096;

/** The defaults: 10 repeats, 4,096 hashes. */
export const defaultRelayOptions: RelayOptions = {
  repeatedMessageLimit: DEFAULT_REPEATED_MESSAGE_LIMIT,
  recentHashes: DEFAULT_RECENT_HASHES,
};
