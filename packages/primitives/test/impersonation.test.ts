import {readJsonVector} from "@xchain/test-utils";
import {equalBytes, hexToBytes, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {Transaction, type TransactionValues} from "../src/index.ts";

interface Accounts {
  accounts: {privateKey: string; address: string}[];
}

const cow = readJsonVector<Accounts>("regtest-accounts.json").accounts[0]!;
const alice = hexToBytes("0x1111111111111111111111111111111111111111");
const bob = hexToBytes("0x2222222222222222222222222222222222222222");
const transfer: TransactionValues = {
  nonce: 0n,
  gasPrice: 0n,
  gasLimit: 21_000n,
  to: hexToBytes("0x3535353535353535353535353535353535353535"),
  value: 10n ** 18n,
  data: new Uint8Array(0),
};

describe("impersonated transactions (docs/rpc.md §4.10)", () => {
  it("carry their sender: sender() answers it without recovery", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    expect(tx.sender()).toEqual(alice);
    expect(tx.impersonatedSender).toEqual(alice);
    expect(tx.chainId).toBe(33);
  });

  it("the signature names the sender: r = 2^160 + sender, s = 1, v the chain id's with recovery 0", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    expect(tx.r).toBe((1n << 160n) + BigInt("0x1111111111111111111111111111111111111111"));
    expect(tx.s).toBe(1n);
    expect(tx.v).toBe(33 * 2 + 35);
    expect(tx.impersonationClaim()).toEqual(alice);
  });

  it("the hash is keccak-256 of the encoding and differs between two senders of the same fields", () => {
    const fromAlice = Transaction.impersonate(transfer, alice, 33);
    const fromBob = Transaction.impersonate(transfer, bob, 33);
    expect(fromAlice.hash()).toEqual(keccak256(fromAlice.encode()));
    expect(equalBytes(fromAlice.hash(), fromBob.hash())).toBe(false);
    // The same sender and fields: the same transaction.
    expect(Transaction.impersonate(transfer, alice, 33).hash()).toEqual(fromAlice.hash());
  });

  it("the zero address can be impersonated too (r stays non-zero)", () => {
    const zero = new Uint8Array(20);
    const tx = Transaction.impersonate(transfer, zero, 33);
    expect(tx.impersonationClaim()).toEqual(zero);
    expect(Transaction.decode(tx.encode(), {chainId: 33}).impersonationClaim()).toEqual(zero);
  });

  it("decoded, the sender is not believed: it is recovered unless asImpersonated() says so", () => {
    const tx = Transaction.impersonate(transfer, alice, 33);
    const decoded = Transaction.decode(tx.encode(), {chainId: 33});
    expect(decoded.impersonatedSender).toBeUndefined();
    expect(decoded.impersonationClaim()).toEqual(alice);
    let recovered: Uint8Array | undefined;
    try {
      recovered = decoded.sender();
    } catch {
      // No key matches (r, s): an impersonation signature need not recover at all.
    }
    if (recovered) expect(equalBytes(recovered, alice)).toBe(false);
    const restored = decoded.asImpersonated();
    expect(restored.sender()).toEqual(alice);
    expect(restored.hash()).toEqual(tx.hash());
    expect(restored.encode()).toEqual(tx.encode());
  });

  it("a signed transaction names no sender and cannot be taken as impersonated", () => {
    const signed = Transaction.sign(transfer, hexToBytes(cow.privateKey), 33);
    expect(signed.impersonationClaim()).toBeUndefined();
    expect(signed.impersonatedSender).toBeUndefined();
    expect(() => signed.asImpersonated()).toThrow(RangeError);
  });

  it("refuses a sender that is not 20 bytes", () => {
    expect(() => Transaction.impersonate(transfer, new Uint8Array(19), 33)).toThrow(RangeError);
  });
});
