/** The sync status object (docs/rpc.md §2.8) of `eth_syncing` and the `syncing` subscription. */
import {toQuantity} from "@xchain/utils";
import type {SyncStatus} from "../deps.ts";

/** The object while syncing, `false` otherwise. */
export function formatSyncStatus(
  status: SyncStatus | undefined,
): {startingBlock: string; currentBlock: string; highestBlock: string} | false {
  if (!status) return false;
  return {
    startingBlock: toQuantity(status.startingBlock),
    currentBlock: toQuantity(status.currentBlock),
    highestBlock: toQuantity(status.highestBlock),
  };
}
