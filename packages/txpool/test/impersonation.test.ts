/**
 * Impersonated transactions in the pool (docs/rpc.md §4.10): admitted without a signature only
 * while the dev controls are on and the sender impersonated (or sent by name as unsigned), kept
 * out of the journal, and a raw transaction of the same form is an ordinary signed one.
 */
import {Transaction, type TransactionValues} from "@xchain/primitives";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {type ImpersonationPolicy, TxPoolError, TxPoolErrorCode} from "../src/index.ts";
import {journalRecords} from "../src/journal/txJournal.ts";
import {cows, openPool, refusal, regtest, signTx} from "./helpers.ts";

const keyless = hexToBytes("0x00000000000000000000000000000000000c0ffe");
const FUNDS = 10n ** 18n;

/** A policy over a set of senders, as the miner's `ImpersonatedAccounts` answers it. */
function policy(enabled: boolean, senders: Uint8Array[] = []): ImpersonationPolicy & {senders: Set<string>} {
  const set = new Set(senders.map(bytesToHex));
  return {enabled, senders: set, allows: (sender) => enabled && set.has(bytesToHex(sender))};
}

function fromKeyless(values: Partial<TransactionValues> & {nonce: bigint}): Transaction {
  return Transaction.impersonate(
    {gasPrice: 0n, gasLimit: 21_000n, value: 1n, data: new Uint8Array(0), to: cows[9]!.address, ...values},
    keyless,
    regtest.params.chainId,
  );
}

async function poolWith(impersonation?: ImpersonationPolicy) {
  return openPool({alloc: [{address: keyless, balance: FUNDS}], ...(impersonation && {impersonation})});
}

describe("impersonated transactions in the pool", () => {
  it("admits one from an impersonated sender, with the sender carried", async () => {
    const {pool} = await poolWith(policy(true, [keyless]));
    const tx = fromKeyless({nonce: 0n});
    expect(await pool.add(tx)).toEqual({hash: tx.hash(), slot: "pending"});
    expect(pool.pendingForBlock()[0]!.sender()).toEqual(keyless);
    expect(await pool.nextNonce(keyless)).toBe(1n);
  });

  it("NOT_IMPERSONATED: a sender not (or no longer) impersonated", async () => {
    const impersonation = policy(true, [keyless]);
    const {pool} = await poolWith(impersonation);
    impersonation.senders.clear();
    const error = await refusal(pool.add(fromKeyless({nonce: 0n})));
    expect(error.code).toBe(TxPoolErrorCode.NOT_IMPERSONATED);
    expect(error.message).toBe(
      "unsigned transaction from 0x00000000000000000000000000000000000c0ffe refused: the account is not impersonated (anvil_impersonateAccount)",
    );
  });

  it("IMPERSONATION_DISABLED: dev controls off, or a pool without a policy, refuses even addUnsigned", async () => {
    for (const impersonation of [policy(false, [keyless]), undefined]) {
      const {pool} = await poolWith(impersonation);
      for (const attempt of [pool.add(fromKeyless({nonce: 0n})), pool.addUnsigned(fromKeyless({nonce: 0n}))]) {
        const error = await refusal(attempt);
        expect(error.code).toBe(TxPoolErrorCode.IMPERSONATION_DISABLED);
        expect(error.message).toContain("the dev controls are off on this node (miner.devControls)");
      }
    }
  });

  it("RESERVED_SENDER: the zero address, REMASC's sender, is never impersonated (its nonce is the REMASC transaction's)", async () => {
    const zero = new Uint8Array(20);
    const {pool} = await poolWith(policy(true, [zero]));
    const tx = Transaction.impersonate(
      {gasPrice: 0n, gasLimit: 21_000n, value: 0n, data: new Uint8Array(0), to: cows[9]!.address, nonce: 0n},
      zero,
      regtest.params.chainId,
    );
    for (const attempt of [pool.add(tx), pool.addUnsigned(tx)]) {
      const error = await refusal(attempt);
      expect(error.code).toBe(TxPoolErrorCode.RESERVED_SENDER);
      expect(error.message).toBe(
        "unsigned transaction from 0x0000000000000000000000000000000000000000 refused: the zero address sends every block's REMASC transaction, whose nonce it must keep",
      );
    }
  });

  it("addUnsigned (eth_sendUnsignedTransaction) takes any sender while the controls are on", async () => {
    const {pool} = await poolWith(policy(true));
    const tx = fromKeyless({nonce: 0n});
    expect((await pool.addUnsigned(tx)).slot).toBe("pending");
  });

  it("the other rules still apply: nonce and funds against the carried sender", async () => {
    const {pool} = await poolWith(policy(true, [keyless]));
    expect((await refusal(pool.add(fromKeyless({nonce: 0n, value: FUNDS + 1n})))).code).toBe(
      TxPoolErrorCode.INSUFFICIENT_FUNDS,
    );
    expect((await pool.add(fromKeyless({nonce: 3n}))).slot).toBe("queued");
  });

  it("two senders' transactions of the same fields are two transactions", async () => {
    const other = hexToBytes("0x00000000000000000000000000000000000beef0");
    const {pool} = await openPool({
      alloc: [
        {address: keyless, balance: FUNDS},
        {address: other, balance: FUNDS},
      ],
      impersonation: policy(true, [keyless, other]),
    });
    const values = {gasPrice: 0n, gasLimit: 21_000n, value: 1n, data: new Uint8Array(0), to: cows[9]!.address};
    await pool.add(Transaction.impersonate({...values, nonce: 0n}, keyless, regtest.params.chainId));
    await pool.add(Transaction.impersonate({...values, nonce: 0n}, other, regtest.params.chainId));
    expect(pool.status()).toEqual({pending: 2, queued: 0});
  });

  it("a raw transaction of the impersonation form is not believed: its sender is recovered", async () => {
    const {pool} = await poolWith(policy(true, [keyless]));
    const raw = fromKeyless({nonce: 0n}).encode();
    const outcome = await pool.addRaw(raw).then(
      () => undefined,
      (e: unknown) => e,
    );
    // The recovered sender is some other (unfunded) account, or none: either way not the impersonated one.
    expect(outcome).toBeInstanceOf(TxPoolError);
    expect(pool.status()).toEqual({pending: 0, queued: 0});
  });

  it("the journal leaves impersonated transactions out", async () => {
    const {pool} = await poolWith(policy(true, [keyless]));
    const signed = signTx(cows[0]!, {nonce: 0n});
    await pool.add(fromKeyless({nonce: 0n}));
    await pool.add(signed);
    expect(journalRecords(pool, 1_000_000)).toEqual([signed.encode()]);
  });
});
