/**
 * The best block the pool is in step with, and the accounts read at it. Admission checks against
 * this head, not the chain's latest, so that checks and the pool's contents agree until
 * maintenance moves both to a new head in one step.
 */
import type {ChainHead, ChainReader} from "@xchain/chain";
import type {StateReader} from "@xchain/state";
import {bytesToHex} from "@xchain/utils";

/** An account's nonce and balance at the head. */
export interface AccountSnapshot {
  nonce: bigint;
  balance: bigint;
}

/** One head and a cache of the accounts read at it. */
export class HeadView {
  private state?: Promise<StateReader>;
  private readonly accounts = new Map<string, Promise<AccountSnapshot>>();

  constructor(
    private readonly chain: Pick<ChainReader, "stateAt">,
    readonly head: ChainHead,
  ) {}

  /** The account at the head (a missing account has nonce and balance 0); read once per head. */
  account(address: Uint8Array): Promise<AccountSnapshot> {
    const key = bytesToHex(address);
    let account = this.accounts.get(key);
    if (!account) {
      account = this.read(address);
      this.accounts.set(key, account);
      // A failed read is not cached.
      account.catch(() => this.accounts.delete(key));
    }
    return account;
  }

  private async read(address: Uint8Array): Promise<AccountSnapshot> {
    this.state ??= this.chain.stateAt(this.head.hash);
    const state = await this.state.catch((e: unknown) => {
      this.state = undefined;
      throw e;
    });
    const account = await state.getAccount(address);
    return {nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n};
  }
}
