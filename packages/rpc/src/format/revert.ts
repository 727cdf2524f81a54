/**
 * A failed execution as a wire error: a revert is -32015 with the reason decoded from an
 * `Error(string)` payload and the payload in `data` (docs/rpc.md §7, docs/protocol/errors.md); any other failure (out
 * of gas, invalid opcode) is -32000 with the EVM's reason, as geth answers.
 */
import type {CallResult} from "@xchain/execution";
import {bytesToBigInt, bytesToHex, toData} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";

/** The selector of `Error(string)`. */
const ERROR_SELECTOR = "08c379a0";
const WORD = 32;

/** The reason string of an `Error(string)` revert payload, or undefined. */
export function decodeRevertReason(payload: Uint8Array): string | undefined {
  if (payload.length < 4 + 2 * WORD || bytesToHex(payload.subarray(0, 4)) !== ERROR_SELECTOR) {
    return undefined;
  }
  const body = payload.subarray(4);
  const offset = bytesToBigInt(body.subarray(0, WORD));
  if (offset + BigInt(WORD) > BigInt(body.length)) return undefined;
  const start = Number(offset);
  const length = bytesToBigInt(body.subarray(start, start + WORD));
  if (BigInt(start + WORD) + length > BigInt(body.length)) return undefined;
  const text = body.subarray(start + WORD, start + WORD + Number(length));
  return new TextDecoder("utf-8", {fatal: false}).decode(text);
}

/** The error a failed call becomes. */
export function failedCallError(result: CallResult): RpcError {
  if (result.revertData !== undefined) {
    return RpcError.reverted(decodeRevertReason(result.revertData), toData(result.revertData));
  }
  return RpcError.server(result.error ?? "execution failed");
}
