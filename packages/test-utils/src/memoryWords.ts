/** An account's storage words in memory, for the tests of native contracts' storage (`bytesStorage`). */

import type {WordStorage} from "@xchain/state";
import {bytesToHex, hexToBytes} from "@xchain/utils";

export class MemoryWords implements WordStorage {
  readonly words = new Map<string, Uint8Array>();

  async get(slot: Uint8Array): Promise<Uint8Array> {
    return this.words.get(bytesToHex(slot)) ?? new Uint8Array(32);
  }

  async put(slot: Uint8Array, word: Uint8Array): Promise<void> {
    if (word.every((b) => b === 0)) this.words.delete(bytesToHex(slot));
    else this.words.set(bytesToHex(slot), word);
  }

  /** Sets a raw word, as a dev control could. */
  set(slot: string, word: string): void {
    this.words.set(slot, hexToBytes(word));
  }
}
