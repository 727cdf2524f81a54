/**
 * What one Bridge method runs with (docs/protocol/native-contracts.md §10.1): the call's context, the
 * Bridge's storage as this call sees it, the active federation and the events it emits, and the
 * shape of a method in the table (`BridgeMethod`).
 */
import type {Log} from "@xchain/primitives";
import {equalBytes} from "@xchain/utils";
import {NativeContractFailure, NativeContractFailureCode} from "../../errors.ts";
import type {AbiFunction, AbiValue} from "../dispatch/abi.ts";
import type {NativeCallContext} from "../dispatch/types.ts";
import type {Federation} from "./federation.ts";
import type {BridgeStorage} from "./storage.ts";

export interface BridgeCall {
  readonly context: NativeCallContext;
  readonly storage: BridgeStorage;
  /** The active federation: the genesis one, as long as xchain runs no federation change. */
  readonly federation: Federation;
  /** The events emitted so far, in order. */
  readonly logs: Log[];
}

/** One method of the Bridge (rskj's `BridgeMethods` entry, with the RSKIPs active on regtest). */
export interface BridgeMethod {
  readonly fn: AbiFunction;
  /**
   * The method's own price; the dispatcher adds 2 gas per input byte. A price that depends on the
   * Bridge's state (`getBtcTransactionConfirmations`) reads it from `storage()` and answers a promise.
   */
  gas(args: AbiValue[], storage: () => BridgeStorage): bigint | Promise<bigint>;
  /** Local-only (column L): fails outside eth_call. */
  readonly localOnly?: boolean;
  /** Accepts STATICCALL besides CALL (column C/S, RSKIP-417); others accept CALL only. */
  readonly acceptsStaticCall: boolean;
  /** The single output value, or undefined for a void method (no output bytes). */
  run(args: AbiValue[], call: BridgeCall): Promise<AbiValue | undefined> | AbiValue | undefined;
}

/** A Bridge method refusing its input or its caller: rskj's `VMException`, an exceptional halt. */
export function bridgeFailure(
  method: string,
  message: string,
  code: NativeContractFailureCode = NativeContractFailureCode.ILLEGAL_ARGUMENT,
): NativeContractFailure {
  return new NativeContractFailure({code, contract: "Bridge", method}, `Bridge.${method}: ${message}`);
}

/**
 * rskj's `activeAndRetiringFederationOnly` and `activeRetiringAndProposedFederationOnly`: the immediate
 * sender must be the RSK address of a federator. The active federation is the only one xchain has
 * (no retiring or proposed federation without federation changes, §10.8), so both are this check.
 */
export function requireFederator(call: BridgeCall, method: string): void {
  if (!call.federation.members.some((member) => equalBytes(member.rskAddress, call.context.sender))) {
    throw bridgeFailure(method, "the sender is not a federation member", NativeContractFailureCode.CALLER_REFUSED);
  }
}

/** A constant price. */
export const price = (gas: number) => (): bigint => BigInt(gas);
