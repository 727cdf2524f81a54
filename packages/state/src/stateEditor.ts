/**
 * Direct edits of a state session by address and slot (the dev controls' anvil_setBalance,
 * setCode, setStorageAt…, through the chain's `editHeadState`): what the EVM would write, without
 * a transaction. The session's commit returns the writes as for a block.
 */
import {Account, Address, setLengthLeft} from "@ethereumjs/util";
import type {StateSession} from "./types.ts";

/** Reads and writes of one account at a time; reads see the edit's own writes. Addresses 20 bytes, slots and values 32. */
export interface StateEditor {
  /** undefined when the account does not exist. */
  getAccount(address: Uint8Array): Promise<{nonce: bigint; balance: bigint; code: Uint8Array} | undefined>;
  /** Each setter creates a missing account. */
  setBalance(address: Uint8Array, balance: bigint): Promise<void>;
  setNonce(address: Uint8Array, nonce: bigint): Promise<void>;
  setCode(address: Uint8Array, code: Uint8Array): Promise<void>;
  /** The 32-byte value of a slot (all zeros when unset). */
  getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
  /** A zero value deletes the slot. */
  setStorage(address: Uint8Array, slot: Uint8Array, value: Uint8Array): Promise<void>;
}

/** An editor over `session`'s state manager; commit the session afterwards. */
export function stateEditor(session: StateSession): StateEditor {
  const sm = session.stateManager;
  return {
    async getAccount(address) {
      const at = new Address(address);
      const account = await sm.getAccount(at);
      return account && {nonce: account.nonce, balance: account.balance, code: await sm.getCode(at)};
    },
    setBalance: (address, balance) => sm.modifyAccountFields(new Address(address), {balance}),
    setNonce: (address, nonce) => sm.modifyAccountFields(new Address(address), {nonce}),
    setCode: (address, code) => sm.putCode(new Address(address), code),
    async getStorage(address, slot) {
      return setLengthLeft(await sm.getStorage(new Address(address), slot), 32);
    },
    async setStorage(address, slot, value) {
      const at = new Address(address);
      // anvil writes a slot of a missing account too: the account comes into being, empty.
      if ((await sm.getAccount(at)) === undefined) await sm.putAccount(at, new Account());
      await sm.putStorage(at, slot, value);
    },
  };
}
