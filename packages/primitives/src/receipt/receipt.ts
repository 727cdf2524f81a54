/**
 * A transaction receipt in rskj's 6-element form `[postTxState, cumulativeGas, logsBloom, logs,
 * gasUsed, status]` (docs/protocol/header.md §7): postTxState and status are `0x01` on success and empty on failure;
 * gas values are minimal unsigned with zero as the empty string (BouncyCastle 1.59, docs/protocol/encoding.md).
 */
import {bytesToBigInt, equalBytes} from "@xchain/utils";
import {logsBloom} from "../bloom.ts";
import {LOGS_BLOOM_LENGTH} from "../header/fields.ts";
import {encodeUnsigned} from "../rlp/numbers.ts";
import {asBytes, asList, decodeRlpList, encodeRlp, RlpError} from "../rlp/rlp.ts";
import {ReceiptDecodeError, ReceiptDecodeErrorCode} from "./errors.ts";
import {fixedLength, type Log, logFromRlpItem, logToRlpItem} from "./log.ts";

const SUCCESS = Uint8Array.of(1);
const FAILURE = new Uint8Array(0);
const RECEIPT_FIELD_COUNT = 6;

/** What executing a transaction produced. */
export interface ReceiptValues {
  success: boolean;
  /** Gas used by this and every earlier transaction of the block. */
  cumulativeGas: bigint;
  gasUsed: bigint;
  logs: Log[];
  /** Defaults to the bloom of `logs`. */
  logsBloom?: Uint8Array;
}

/** The outcome of one transaction: status, gas, logs and their bloom. */
export class Receipt {
  readonly success: boolean;
  readonly cumulativeGas: bigint;
  readonly gasUsed: bigint;
  readonly logs: readonly Log[];
  readonly logsBloom: Uint8Array;

  constructor(values: ReceiptValues) {
    this.success = values.success;
    this.cumulativeGas = values.cumulativeGas;
    this.gasUsed = values.gasUsed;
    this.logs = values.logs;
    this.logsBloom = values.logsBloom ?? logsBloom(values.logs);
  }

  /** Decodes the 6-element form strictly (the form this node writes). */
  static decode(bytes: Uint8Array): Receipt {
    try {
      const items = decodeRlpList(bytes, "receipt");
      if (items.length !== RECEIPT_FIELD_COUNT) {
        throw new ReceiptDecodeError(
          {code: ReceiptDecodeErrorCode.WRONG_FIELD_COUNT, count: items.length},
          `receipt has ${items.length} fields, expected 6`,
        );
      }
      const [postTxState, cumulativeGas, bloom, logs, gasUsed, status] = items;
      return new Receipt({
        success: decodeStatus(asBytes(postTxState, "postTxState"), asBytes(status, "status")),
        cumulativeGas: decodeGas(asBytes(cumulativeGas, "cumulativeGas"), "cumulativeGas"),
        logsBloom: fixedLength(asBytes(bloom, "logsBloom"), "logsBloom", LOGS_BLOOM_LENGTH),
        logs: asList(logs, "logs").map(logFromRlpItem),
        gasUsed: decodeGas(asBytes(gasUsed, "gasUsed"), "gasUsed"),
      });
    } catch (e) {
      if (e instanceof RlpError) {
        throw new ReceiptDecodeError({code: ReceiptDecodeErrorCode.BAD_RLP, reason: e.code}, `receipt: ${e.message}`);
      }
      throw e;
    }
  }

  /** The 6-element encoding (what the receipt trie stores). */
  encode(): Uint8Array {
    const status = this.success ? SUCCESS : FAILURE;
    return encodeRlp([
      status,
      encodeUnsigned(this.cumulativeGas),
      this.logsBloom,
      this.logs.map(logToRlpItem),
      encodeUnsigned(this.gasUsed),
      status,
    ]);
  }
}

function decodeStatus(postTxState: Uint8Array, status: Uint8Array): boolean {
  const success = postTxState.length === 1 && postTxState[0] === 1;
  if ((!success && postTxState.length !== 0) || !equalBytes(postTxState, status)) {
    throw new ReceiptDecodeError(
      {code: ReceiptDecodeErrorCode.BAD_STATUS},
      "receipt: postTxState and status must both be 0x01 or both be empty",
    );
  }
  return success;
}

// rskj keeps gas in a long and writes it minimal, zero as the empty string.
function decodeGas(raw: Uint8Array, field: string): bigint {
  const value = bytesToBigInt(raw);
  if (raw[0] === 0 || value >> 63n !== 0n) {
    throw new ReceiptDecodeError(
      {code: ReceiptDecodeErrorCode.BAD_NUMBER, field},
      `receipt: ${field} is not a minimal 63-bit number`,
    );
  }
  return value;
}
