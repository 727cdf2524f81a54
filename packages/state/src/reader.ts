import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {Address, setLengthLeft} from "@ethereumjs/util";
import {checkLength} from "./errors.ts";
import type {AccountState, StateReader} from "./types.ts";

/** A read-only view of the state at one root over a state manager whose trie refuses writes. */
export class TrieStateReader implements StateReader {
  constructor(
    readonly root: Uint8Array,
    private readonly stateManager: MerkleStateManager,
  ) {}

  async getAccount(address: Uint8Array): Promise<AccountState | undefined> {
    const account = await this.stateManager.getAccount(toAddress(address));
    if (account === undefined) return undefined;
    return {
      nonce: account.nonce,
      balance: account.balance,
      codeHash: account.codeHash,
      storageRoot: account.storageRoot,
    };
  }

  async getBalance(address: Uint8Array): Promise<bigint> {
    return (await this.getAccount(address))?.balance ?? 0n;
  }

  async getNonce(address: Uint8Array): Promise<bigint> {
    return (await this.getAccount(address))?.nonce ?? 0n;
  }

  getCode(address: Uint8Array): Promise<Uint8Array> {
    return this.stateManager.getCode(toAddress(address));
  }

  async getStorage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array> {
    checkLength(slot, 32, "slot");
    return setLengthLeft(await this.stateManager.getStorage(toAddress(address), slot), 32);
  }
}

function toAddress(address: Uint8Array): Address {
  checkLength(address, 20, "address");
  return new Address(address);
}
