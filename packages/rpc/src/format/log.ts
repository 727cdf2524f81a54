/** The log object (rpc-api §2.6). */
import type {LogWithContext} from "@xchain/chain";
import {toData, toQuantity} from "@xchain/utils";

/** The JSON log object. */
export interface LogJson {
  removed: boolean;
  logIndex: string;
  transactionIndex: string;
  transactionHash: string;
  blockHash: string;
  blockNumber: string;
  address: string;
  data: string;
  topics: string[];
}

/** Formats a log with its context. */
export function formatLog(entry: LogWithContext): LogJson {
  return {
    removed: entry.removed,
    logIndex: toQuantity(entry.logIndex),
    transactionIndex: toQuantity(entry.transactionIndex),
    transactionHash: toData(entry.transactionHash),
    blockHash: toData(entry.blockHash),
    blockNumber: toQuantity(entry.blockNumber),
    address: toData(entry.log.address),
    data: toData(entry.log.data),
    topics: entry.log.topics.map(toData),
  };
}
