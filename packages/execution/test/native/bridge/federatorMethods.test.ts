/**
 * The federators' methods (docs/protocol/native-contracts.md §10.8): rskj parses and prices
 * `updateCollections` and `addSignature` on every network, so anyone else fails paying the method's price
 * (48,000 / 70,000 + 2 gas per byte), not unparseable input's 23,000; a federator's call fails too (tier C).
 */
import {createRequire} from "node:module";
import {hexToBytes} from "@xchain/utils";
import {Interface} from "ethers";
import {describe, expect, it} from "vitest";
import {NativeContractFailure, NativeContractFailureCode} from "../../../src/errors.ts";
import {bridgeContract} from "../../../src/native/bridge/contract.ts";
import {bridgeContext, bridgeState} from "./bridgeContext.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);
const calldata = (name: string, args: unknown[] = []) => hexToBytes(abi.encodeFunctionData(name, args).slice(2));

/** A regtest genesis federator's RSK address (docs/protocol/native-contracts.md §11.1). */
const FEDERATOR = hexToBytes("6b045752f4d650a510a353bbf7e52988331e7f5b");
const MINED = {localCall: false, transactionPublicKey: new Uint8Array(64).fill(1)} as const;

const CASES = [
  ["updateCollections", [], 48_000n],
  ["addSignature", [`0x${"02".repeat(33)}`, ["0x3006020101020101"], `0x${"22".repeat(32)}`], 70_000n],
] as const;

async function failureOf(data: Uint8Array, overrides: Parameters<typeof bridgeContext>[1]) {
  const state = await bridgeState();
  const error = await Promise.resolve(bridgeContract.run(data, bridgeContext(state, overrides))).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NativeContractFailure);
  return error as NativeContractFailure;
}

describe("updateCollections and addSignature", () => {
  it.each(CASES)("%s costs its price plus 2 gas per input byte, as rskj charges", async (name, args, price) => {
    const data = calldata(name, [...args]);
    const context = bridgeContext(await bridgeState(), MINED);
    expect(await bridgeContract.gas(data, context)).toBe(price + 2n * BigInt(data.length));
  });

  it.each(CASES)("%s fails for a sender that is not a federator, an account or a contract", async (name, args) => {
    const data = calldata(name, [...args]);
    expect((await failureOf(data, MINED)).code).toBe(NativeContractFailureCode.CALLER_REFUSED);
    const internal = {...MINED, sender: FEDERATOR, callType: "CALL" as const, depth: 1, origin: FEDERATOR};
    // A contract's address is never a federator's, whoever sent the transaction.
    expect((await failureOf(data, {...internal, sender: new Uint8Array(20).fill(7)})).code).toBe(
      NativeContractFailureCode.CALLER_REFUSED,
    );
  });

  it.each(CASES)("%s fails for a federator too: tier C is not built", async (name, args) => {
    const error = await failureOf(calldata(name, [...args]), {...MINED, sender: FEDERATOR});
    expect(error.code).toBe(NativeContractFailureCode.ILLEGAL_ARGUMENT);
    expect(error.message).toContain("tier C");
  });
});
