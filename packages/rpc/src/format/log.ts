/** The log object (docs/rpc.md §2.6). */
import type {LogWithContext} from "@xchain/chain";
import {toData, toQuantity} from "@xchain/utils";
import {RawJson} from "../jsonrpc/rawJson.ts";

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

// Log entries are shared and immutable (the chain caches a block's logs): each one's UTF-8 JSON is
// kept with it, so repeated queries over the same blocks only copy bytes.
const logJsonBytes = new WeakMap<LogWithContext, Buffer>();
const OPEN = Buffer.from("[");
const COMMA = Buffer.from(",");
const CLOSE = Buffer.from("]");

/** The JSON array of `entries`, as `entries.map(formatLog)` would serialize. */
export function logsToJson(entries: readonly LogWithContext[]): RawJson {
  const chunks: Buffer[] = [OPEN];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as LogWithContext;
    let bytes = logJsonBytes.get(entry);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(formatLog(entry)));
      logJsonBytes.set(entry, bytes);
    }
    if (i > 0) chunks.push(COMMA);
    chunks.push(bytes);
  }
  chunks.push(CLOSE);
  return new RawJson(Buffer.concat(chunks));
}
