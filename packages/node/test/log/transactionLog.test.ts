import type {NewHeadEvent} from "@xchain/chain";
import type {TransactionOutcome} from "@xchain/execution";
import {createRemascTransaction, Transaction} from "@xchain/primitives";
import {createdContractAddress} from "@xchain/rpc";
import {
  bigIntToFixedBytes,
  bytesToPrefixedHex,
  concatBytes,
  hexToBytes,
  keccak256,
  type Logger,
  utf8ToBytes,
} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {transactionLine, transactionLog} from "../../src/log/transactionLog.ts";

const KEY = keccak256(utf8ToBytes("cow1"));
const TO = hexToBytes("11".repeat(20));

function signed(to: Uint8Array | undefined, nonce = 3n): Transaction {
  return Transaction.sign({nonce, gasPrice: 0n, gasLimit: 100_000n, to, value: 0n, data: new Uint8Array()}, KEY, 33);
}

function outcome(tx: Transaction, fields: Partial<TransactionOutcome> = {}): TransactionOutcome {
  return {transaction: tx, status: true, gasUsed: 21_000n, cumulativeGasUsed: 21_000n, fee: 0n, logs: [], ...fields};
}

/** The ABI encoding of Panic(0x11). */
const PANIC_OVERFLOW = concatBytes(hexToBytes("4e487b71"), bigIntToFixedBytes(0x11n, 32));

describe("transactionLine", () => {
  it("names the recipient, the status and the gas", () => {
    const tx = signed(TO);
    const {fields, message} = transactionLine(9, outcome(tx));
    const from = bytesToPrefixedHex(tx.sender());
    expect(fields).toMatchObject({block: 9, from, to: bytesToPrefixedHex(TO), status: "success", gasUsed: 21_000});
    expect(message).toBe(
      `transaction ${bytesToPrefixedHex(tx.hash())} from ${from} to 0x${"11".repeat(20)}: success, 21,000 gas`,
    );
  });

  it("names the address a creation deploys to, even when the creation failed", () => {
    const tx = signed(undefined, 7n);
    const address = bytesToPrefixedHex(createdContractAddress(tx.sender(), 7n));
    const failed = transactionLine(1, outcome(tx, {status: false, gasUsed: 100_000n}));
    expect(failed.fields).toMatchObject({created: address, status: "failed"});
    expect(failed.message).toMatch(new RegExp(`created ${address}: failed, 100,000 gas$`));
  });

  it("says why a transaction reverted: a panic's meaning, a custom error's selector", () => {
    const panic = transactionLine(1, outcome(signed(TO), {status: false, revertData: PANIC_OVERFLOW}));
    expect(panic.fields).toMatchObject({status: "reverted", reason: "panic: arithmetic underflow or overflow"});
    expect(panic.message).toMatch(/: reverted: panic: arithmetic underflow or overflow, 21,000 gas$/);
    const custom = transactionLine(1, outcome(signed(TO), {status: false, revertData: hexToBytes("deadbeef0000")}));
    expect(custom.fields.reason).toBe("custom error 0xdeadbeef");
    const bare = transactionLine(1, outcome(signed(TO), {status: false, revertData: new Uint8Array()}));
    expect(bare.message).toMatch(/: reverted, 21,000 gas$/);
  });
});

describe("transactionLog", () => {
  it("writes the user transactions of a new head while its switch is on and no sync runs", () => {
    const lines: string[] = [];
    const logger = {info: (_fields: unknown, msg: string) => lines.push(msg)} as unknown as Logger;
    const logging = {enabled: true};
    let syncTarget: number | undefined;
    const listener = transactionLog(logging, logger, () => syncTarget);
    const event = {
      head: {number: 4},
      headOutcomes: [outcome(signed(TO)), outcome(createRemascTransaction(4))],
    } as unknown as NewHeadEvent;
    listener(event);
    expect(lines).toHaveLength(1);
    syncTarget = 100;
    listener(event);
    expect(lines).toHaveLength(1);
    syncTarget = undefined;
    logging.enabled = false;
    listener(event);
    expect(lines).toHaveLength(1);
  });
});
