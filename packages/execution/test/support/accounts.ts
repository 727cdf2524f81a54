/** Funded test accounts and a transaction signer with per-sender nonces. */
import {Transaction, type TransactionValues} from "@xchain/primitives";
import {type DslAccount, dslAccount} from "./dsl.ts";

export const CHAIN_ID = 33;
export const ETHER = 10n ** 18n;

/** A key pair that signs with its own nonce counter. */
export class Signer {
  readonly account: DslAccount;
  nonce = 0n;

  constructor(name: string) {
    this.account = dslAccount(name);
  }

  get address(): Uint8Array {
    return this.account.address;
  }

  /** Signs the next transaction (gas price 1, gas 1,000,000 unless given). */
  sign(values: Partial<TransactionValues>): Transaction {
    const tx = Transaction.sign(
      {
        nonce: values.nonce ?? this.nonce,
        gasPrice: values.gasPrice ?? 1n,
        gasLimit: values.gasLimit ?? 1_000_000n,
        to: values.to,
        value: values.value ?? 0n,
        data: values.data ?? new Uint8Array(0),
      },
      this.account.key,
      CHAIN_ID,
    );
    if (values.nonce === undefined) this.nonce++;
    return tx;
  }
}
