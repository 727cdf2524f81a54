/**
 * A failed execution as a wire error: a revert is answered in the form `rpc.revertErrors` names
 * (docs/rpc.md §7): rskj's -32015 with the reason decoded from an `Error(string)` payload, or
 * geth's code 3 `execution reverted: <reason>` where a `Panic(uint256)` is named too; both carry
 * the payload in `data`, so a client decodes custom errors from it. Any other failure (out of gas,
 * invalid opcode) is -32000 with the EVM's reason, as geth answers.
 */
import type {CallResult} from "@xchain/execution";
import {bytesToBigInt, bytesToHex, toData} from "@xchain/utils";
import {RpcError} from "../jsonrpc/errors.ts";
import type {RevertErrorStyle} from "../options.ts";

/** The selector of `Error(string)`. */
const ERROR_SELECTOR = "08c379a0";
/** The selector of `Panic(uint256)`. */
const PANIC_SELECTOR = "4e487b71";
const WORD = 32;

/** What Solidity's panic codes mean, in geth's words (docs/rpc.md §7). */
const PANIC_REASONS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, "generic panic"],
  [0x01n, "assert(false)"],
  [0x11n, "arithmetic underflow or overflow"],
  [0x12n, "division or modulo by zero"],
  [0x21n, "enum overflow"],
  [0x22n, "invalid encoded storage byte array accessed"],
  [0x31n, "out-of-bounds array access; popping on an empty array"],
  [0x32n, "out-of-bounds access of an array or bytesN"],
  [0x41n, "out of memory"],
  [0x51n, "uninitialized function"],
]);

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

/** What a `Panic(uint256)` payload's code means (`unknown panic code: 0x..` for another), or undefined. */
export function decodePanic(payload: Uint8Array): string | undefined {
  if (payload.length !== 4 + WORD || bytesToHex(payload.subarray(0, 4)) !== PANIC_SELECTOR) return undefined;
  const code = bytesToBigInt(payload.subarray(4));
  return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`;
}

/**
 * A revert payload in words for a person (the node's transaction log): the reason string, the
 * panic's meaning, a custom error's selector, or undefined for an empty payload.
 */
export function describeRevert(payload: Uint8Array): string | undefined {
  const reason = decodeRevertReason(payload);
  if (reason !== undefined) return reason;
  const panic = decodePanic(payload);
  if (panic !== undefined) return `panic: ${panic}`;
  if (payload.length >= 4) return `custom error 0x${bytesToHex(payload.subarray(0, 4))}`;
  return payload.length === 0 ? undefined : `0x${bytesToHex(payload)}`;
}

/** The error a failed call becomes, in `style`'s form when it reverted. */
export function failedCallError(result: CallResult, style: RevertErrorStyle): RpcError {
  if (result.revertData !== undefined) {
    const data = toData(result.revertData);
    if (style === "geth") {
      return RpcError.executionReverted(decodeRevertReason(result.revertData) ?? decodePanic(result.revertData), data);
    }
    return RpcError.reverted(decodeRevertReason(result.revertData), data);
  }
  return RpcError.server(result.error ?? "execution failed");
}
