/**
 * Applies a call's state override to its overlay before the message runs (docs/protocol/state-override.md
 * §3): balance and nonce set, code stored, `state` replacing the whole storage, `stateDiff` patching
 * slots. The overlay then treats the result as the call's starting state.
 */
import {Address} from "@ethereumjs/util";
import type {OverlayStateManager} from "@xchain/state";
import type {StateOverride} from "../types.ts";

/** Writes `overrides` into `state` and settles them; `state` must have just been reset. */
export async function applyStateOverride(state: OverlayStateManager, overrides: StateOverride): Promise<void> {
  for (const account of overrides) {
    const address = new Address(account.address);
    if (account.balance !== undefined || account.nonce !== undefined) {
      await state.modifyAccountFields(address, {balance: account.balance, nonce: account.nonce});
    }
    if (account.code !== undefined) await state.putCode(address, account.code);
    if (account.state !== undefined) await state.clearStorage(address);
    for (const [slot, value] of account.state ?? account.stateDiff ?? []) await state.putStorage(address, slot, value);
  }
  state.settle();
}
