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

/** Builds the JSON array of logs one entry at a time, each entry's bytes reserved before it is kept. */
export class LogJsonWriter {
  private readonly chunks: Buffer[] = [OPEN];

  /** `reserve` counts bytes and throws to refuse them (a request's `ResponseBudget.reserve`). */
  constructor(private readonly reserve: (bytes: number) => void = () => undefined) {}

  /** Appends `entry`; throws what `reserve` throws, with nothing appended. */
  add(entry: LogWithContext): void {
    let bytes = logJsonBytes.get(entry);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(formatLog(entry)));
      logJsonBytes.set(entry, bytes);
    }
    // One byte more for the separator.
    this.reserve(bytes.length + 1);
    if (this.chunks.length > 1) this.chunks.push(COMMA);
    this.chunks.push(bytes);
  }

  /** The array built so far. */
  finish(): RawJson {
    return new RawJson(Buffer.concat([...this.chunks, CLOSE]));
  }
}

/** The JSON array of `entries`, as `entries.map(formatLog)` would serialize. */
export function logsToJson(entries: readonly LogWithContext[]): RawJson {
  const writer = new LogJsonWriter();
  for (const entry of entries) writer.add(entry);
  return writer.finish();
}
