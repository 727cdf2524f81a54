/**
 * EIP-712's signing hash of checked typed data (`params/typedData.ts`): keccak256(0x1901 ‖
 * domainSeparator ‖ hashStruct(message)), computed by viem's `hashTypedData` (docs/dependencies.md
 * §1: a well-kept encoder rather than one of our own). viem is loaded on the first call: a node
 * nobody asks to sign typed data never loads it.
 */
import {hexToBytes} from "@xchain/utils";
import {RpcError} from "./jsonrpc/errors.ts";
import type {TypedData} from "./params/typedData.ts";

let viemUtils: Promise<typeof import("viem/utils")> | undefined;

/** The 32-byte hash eth_signTypedData_v4 signs; -32602 for what viem still refuses after our checks. */
export async function typedDataHash(data: TypedData, argument: string): Promise<Uint8Array> {
  viemUtils ??= import("viem/utils");
  const {hashTypedData} = await viemUtils;
  try {
    return hexToBytes(hashTypedData(data as Parameters<typeof hashTypedData>[0]));
  } catch (e) {
    const reason = (e as {shortMessage?: string}).shortMessage ?? (e as Error).message;
    throw RpcError.invalidParams(`invalid argument ${argument}: ${reason}`);
  }
}
