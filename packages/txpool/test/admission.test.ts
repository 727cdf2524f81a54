/**
 * Admission (docs/protocol/transactions.md): every refusal code with a crafted transaction, on a chain whose
 * minimumGasPrice is 1,000.
 */
import {createRemascTransaction, encodeRlp, SECP256K1_N, Transaction, TransactionField} from "@xchain/primitives";
import {bigIntToBytes} from "@xchain/utils";
import {beforeEach, describe, expect, it} from "vitest";
import {type TxPool, TxPoolErrorCode} from "../src/index.ts";
import {account, cows, openPool, refusal, regtest, signTx} from "./helpers.ts";

const MGP = 1_000n;
const alice = cows[0]!;
/** Funded for one 21,000-gas transfer at the minimum gas price plus 10 wei; nonce 5 at genesis. */
const poor = account("poor");
const POOR_BALANCE = 21_000n * MGP + 10n;

let pool: TxPool;

beforeEach(async () => {
  ({pool} = await openPool({
    minimumGasPrice: MGP,
    alloc: [{address: poor.address, balance: POOR_BALANCE, nonce: 5n}],
    options: {maxNonceGap: 16},
  }));
});

/** `tx`'s encoding with some of its nine elements replaced. */
function withFields(tx: Transaction, changes: Partial<Record<TransactionField, Uint8Array>>): Uint8Array {
  const fields = tx.receivedFields.map((field, i) => changes[i as TransactionField] ?? field);
  return encodeRlp(fields);
}

describe("admission", () => {
  it("admits a valid transfer as pending", async () => {
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP});
    expect(await pool.addRaw(tx.encode())).toEqual({hash: tx.hash(), slot: "pending"});
    expect(pool.get(tx.hash())?.hash()).toEqual(tx.hash());
  });

  it("TOO_LARGE: more than 128 KB", async () => {
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 9_000_000n, data: new Uint8Array(128 * 1024)});
    const e = await refusal(pool.addRaw(tx.encode()));
    expect(e.code).toBe(TxPoolErrorCode.TOO_LARGE);
    expect(e.message).toMatch(/^oversized data/);
    expect((await refusal(pool.add(tx))).code).toBe(TxPoolErrorCode.TOO_LARGE);
  });

  it("DECODE: a typed transaction, bad RLP, a wrong field count", async () => {
    for (const raw of [Uint8Array.of(0x02, 0xc0), Uint8Array.of(0xc5, 0x01), encodeRlp([Uint8Array.of(1)])]) {
      const e = await refusal(pool.addRaw(raw));
      expect(e.code).toBe(TxPoolErrorCode.DECODE);
      expect(e.message).toMatch(/^invalid transaction: /);
    }
  });

  it("WRONG_CHAIN_ID: signed for testnet (31)", async () => {
    const values = {nonce: 0n, gasPrice: MGP, gasLimit: 21_000n, to: alice.address, value: 0n, data: new Uint8Array()};
    const tx = Transaction.sign(values, alice.privateKey, 31);
    for (const attempt of [pool.addRaw(tx.encode()), pool.add(tx)]) {
      const e = await refusal(attempt);
      expect(e.type).toEqual({code: TxPoolErrorCode.WRONG_CHAIN_ID, chainId: 31, expected: regtest.params.chainId});
    }
  });

  it("INVALID_SIGNATURE: a high s, and no signature", async () => {
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP});
    const highS = SECP256K1_N - tx.s;
    const flippedV = (tx.v as number) % 2 === 0 ? (tx.v as number) - 1 : (tx.v as number) + 1;
    const malleable = withFields(tx, {
      [TransactionField.s]: bigIntToBytes(highS),
      [TransactionField.v]: Uint8Array.of(flippedV),
    });
    const empty = new Uint8Array(0);
    const unsigned = withFields(tx, {
      [TransactionField.v]: empty,
      [TransactionField.r]: empty,
      [TransactionField.s]: empty,
    });
    for (const raw of [malleable, unsigned]) {
      const e = await refusal(pool.addRaw(raw));
      expect(e.code).toBe(TxPoolErrorCode.INVALID_SIGNATURE);
      expect(e.message).toMatch(/^invalid sender: /);
    }
  });

  it("REMASC_NOT_ACCEPTED: the REMASC transaction, decoded or given", async () => {
    const remasc = createRemascTransaction(1);
    expect((await refusal(pool.addRaw(remasc.encode()))).code).toBe(TxPoolErrorCode.REMASC_NOT_ACCEPTED);
    expect((await refusal(pool.add(remasc))).code).toBe(TxPoolErrorCode.REMASC_NOT_ACCEPTED);
  });

  it("ALREADY_KNOWN: the same transaction twice", async () => {
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP});
    await pool.add(tx);
    const e = await refusal(pool.addRaw(tx.encode()));
    expect(e.code).toBe(TxPoolErrorCode.ALREADY_KNOWN);
    expect(e.message).toBe("already known");
  });

  it("INITCODE_TOO_LARGE: a creation with more than 49,152 bytes of init code", async () => {
    const data = new Uint8Array(49_153);
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 1_000_000n, to: undefined, data});
    const e = await refusal(pool.add(tx));
    expect(e.type).toEqual({code: TxPoolErrorCode.INITCODE_TOO_LARGE, sizeBytes: 49_153, maxBytes: 49_152});
    expect(e.message).toMatch(/^max initcode size exceeded/);
    await pool.add(
      signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 1_000_000n, to: undefined, data: data.subarray(1)}),
    );
  });

  it("GAS_LIMIT_ABOVE_BLOCK: a gas limit above the best block's", async () => {
    const tx = signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 10_000_001n});
    const e = await refusal(pool.add(tx));
    expect(e.type).toEqual({
      code: TxPoolErrorCode.GAS_LIMIT_ABOVE_BLOCK,
      gasLimit: 10_000_001n,
      blockGasLimit: 10_000_000n,
    });
    expect(e.message).toMatch(/^exceeds block gas limit/);
  });

  it("NONCE_TOO_LOW: below the account nonce at the best block", async () => {
    const e = await refusal(pool.add(signTx(poor, {nonce: 4n, gasPrice: MGP})));
    expect(e.type).toEqual({code: TxPoolErrorCode.NONCE_TOO_LOW, nonce: 4n, accountNonce: 5n});
    expect(e.message).toMatch(/^nonce too low/);
  });

  it("NONCE_TOO_HIGH: maxNonceGap or more ahead of the account nonce", async () => {
    const e = await refusal(pool.add(signTx(alice, {nonce: 16n, gasPrice: MGP})));
    expect(e.type).toEqual({code: TxPoolErrorCode.NONCE_TOO_HIGH, nonce: 16n, accountNonce: 0n, maxGap: 16});
    expect((await pool.add(signTx(alice, {nonce: 15n, gasPrice: MGP}))).slot).toBe("queued");
  });

  it("INSUFFICIENT_FUNDS: gasLimit × gasPrice + value, counting the sender's pooled transactions", async () => {
    const e = await refusal(pool.add(signTx(poor, {nonce: 5n, gasPrice: MGP, value: 11n})));
    expect(e.type).toEqual({
      code: TxPoolErrorCode.INSUFFICIENT_FUNDS,
      balance: POOR_BALANCE,
      required: POOR_BALANCE + 1n,
    });
    expect(e.message).toMatch(/^insufficient funds for gas \* price \+ value/);
    const first = signTx(poor, {nonce: 5n, gasPrice: MGP, value: 10n});
    await pool.add(first);
    expect((await refusal(pool.add(signTx(poor, {nonce: 6n, gasPrice: MGP})))).code).toBe(
      TxPoolErrorCode.INSUFFICIENT_FUNDS,
    );
  });

  it("GAS_PRICE_TOO_LOW: below the best block's minimumGasPrice", async () => {
    const e = await refusal(pool.add(signTx(alice, {nonce: 0n, gasPrice: MGP - 1n})));
    expect(e.type).toEqual({code: TxPoolErrorCode.GAS_PRICE_TOO_LOW, gasPrice: MGP - 1n, minimumGasPrice: MGP});
    expect(e.message).toMatch(/^transaction underpriced/);
  });

  it("INTRINSIC_GAS_TOO_LOW: a gas limit below the intrinsic gas", async () => {
    const data = Uint8Array.of(0, 1);
    const e = await refusal(pool.add(signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 21_019n, data})));
    expect(e.type).toEqual({code: TxPoolErrorCode.INTRINSIC_GAS_TOO_LOW, gasLimit: 21_019n, intrinsicGas: 21_020n});
    expect(e.message).toMatch(/^intrinsic gas too low/);
    await pool.add(signTx(alice, {nonce: 0n, gasPrice: MGP, gasLimit: 21_020n, data}));
  });

  it("GAS_PRICE_ABOVE_CAP: above 80 × minimumGasPrice (RSKIP-252)", async () => {
    const e = await refusal(pool.add(signTx(alice, {nonce: 0n, gasPrice: 80n * MGP + 1n})));
    expect(e.type).toEqual({code: TxPoolErrorCode.GAS_PRICE_ABOVE_CAP, gasPrice: 80n * MGP + 1n, cap: 80n * MGP});
    await pool.add(signTx(alice, {nonce: 0n, gasPrice: 80n * MGP}));
  });

  it("checks in docs/protocol/transactions.md order: init code, gas limit, nonce, balance, gas price, intrinsic gas, cap", async () => {
    // Breaks every account and price rule at once: the nonce comes first.
    const tx = signTx(poor, {nonce: 0n, gasPrice: 1n, gasLimit: 1n, value: POOR_BALANCE});
    expect((await refusal(pool.add(tx))).code).toBe(TxPoolErrorCode.NONCE_TOO_LOW);
    const broke = signTx(poor, {nonce: 5n, gasPrice: 1n, gasLimit: 1n, value: POOR_BALANCE});
    expect((await refusal(pool.add(broke))).code).toBe(TxPoolErrorCode.INSUFFICIENT_FUNDS);
    const cheap = signTx(poor, {nonce: 5n, gasPrice: 1n, gasLimit: 1n});
    expect((await refusal(pool.add(cheap))).code).toBe(TxPoolErrorCode.GAS_PRICE_TOO_LOW);
  });
});
