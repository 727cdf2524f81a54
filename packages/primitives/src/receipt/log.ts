/** A log entry and its RLP form `[address, [topic…], data]` (rskj `LogInfo`). */
import {asBytes, asList, type RlpItem} from "../rlp/rlp.ts";
import {ReceiptDecodeError, ReceiptDecodeErrorCode} from "./errors.ts";

/** One log emitted during a transaction. */
export interface Log {
  /** 20 bytes: the contract that emitted it. */
  address: Uint8Array;
  /** Up to four 32-byte topics. */
  topics: Uint8Array[];
  data: Uint8Array;
}

/** The RLP item of a log. */
export function logToRlpItem(log: Log): RlpItem {
  return [log.address, log.topics, log.data];
}

/** Decodes the RLP item of the log at `index` of a receipt (RLP shape errors propagate as `RlpError`). */
export function logFromRlpItem(item: RlpItem, index: number): Log {
  const fields = asList(item, `log ${index}`);
  if (fields.length !== 3) {
    throw new ReceiptDecodeError(
      {code: ReceiptDecodeErrorCode.BAD_LOG, index, count: fields.length},
      `receipt: log ${index} has ${fields.length} fields, expected 3`,
    );
  }
  const address = fixedLength(asBytes(fields[0], `log ${index} address`), `log ${index} address`, 20);
  const topics = asList(fields[1], `log ${index} topics`).map((topic, i) =>
    fixedLength(asBytes(topic, `log ${index} topic ${i}`), `log ${index} topic ${i}`, 32),
  );
  return {address, topics, data: asBytes(fields[2], `log ${index} data`)};
}

/** Checks a fixed-size receipt field. */
export function fixedLength(value: Uint8Array, field: string, expected: number): Uint8Array {
  if (value.length !== expected) {
    throw new ReceiptDecodeError(
      {code: ReceiptDecodeErrorCode.BAD_FIELD_LENGTH, field, expected, actual: value.length},
      `receipt: ${field} has ${value.length} bytes, expected ${expected}`,
    );
  }
  return value;
}
