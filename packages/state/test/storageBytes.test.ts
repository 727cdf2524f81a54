import {MemoryWords} from "@xchain/test-utils";
import {bigIntToFixedBytes, bytesToBigInt, bytesToHex, keccak256} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {bytesStorage, MAX_STORED_VALUE_BYTES, NativeStorageError} from "../src/storageBytes.ts";

const KEY = new Uint8Array(32).fill(7);
const bytes = (n: number) => Uint8Array.from({length: n}, (_, i) => (i * 7 + 1) & 0xff);

describe("byte strings in storage words (docs/protocol/native-contracts.md §10.4)", () => {
  it("an unset key is empty", async () => {
    expect((await bytesStorage(new MemoryWords()).getBytes(KEY)).length).toBe(0);
  });

  it.each([1, 31, 32, 33, 64, 116, 1000])("a %i-byte value reads back whole", async (n) => {
    const words = new MemoryWords();
    const store = bytesStorage(words);
    await store.putBytes(KEY, bytes(n));
    expect(bytesToHex(await store.getBytes(KEY))).toBe(bytesToHex(bytes(n)));
  });

  it("keeps leading zero bytes (a StoredBlock's chain work starts with them)", async () => {
    const store = bytesStorage(new MemoryWords());
    const value = new Uint8Array(116);
    value[40] = 9;
    await store.putBytes(KEY, value);
    expect(bytesToHex(await store.getBytes(KEY))).toBe(bytesToHex(value));
  });

  it("lays a value out as Solidity lays out `bytes`: short in the slot, long after keccak256(slot)", async () => {
    const words = new MemoryWords();
    const store = bytesStorage(words);
    await store.putBytes(KEY, Uint8Array.of(0x80));
    expect(bytesToHex(await words.get(KEY))).toBe(`80${"00".repeat(30)}02`);
    await store.putBytes(KEY, bytes(40));
    expect(bytesToBigInt(await words.get(KEY))).toBe(81n);
    const base = bytesToBigInt(keccak256(KEY));
    expect(bytesToHex(await words.get(bigIntToFixedBytes(base, 32)))).toBe(bytesToHex(bytes(40).subarray(0, 32)));
    expect(words.words.size).toBe(3);
  });

  it("a shorter value or an empty one clears the words of the longer one before it", async () => {
    const words = new MemoryWords();
    const store = bytesStorage(words);
    await store.putBytes(KEY, bytes(100));
    await store.putBytes(KEY, bytes(3));
    expect(words.words.size).toBe(1);
    await store.putBytes(KEY, bytes(100));
    await store.putBytes(KEY, new Uint8Array(0));
    expect(words.words.size).toBe(0);
  });

  it("refuses a header announcing more than the bound, without reading it", async () => {
    const words = new MemoryWords();
    words.set(bytesToHex(KEY), `${"ff".repeat(32)}`);
    const error = await bytesStorage(words)
      .getBytes(KEY)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NativeStorageError);
    expect((error as Error).message).toContain(`more than ${MAX_STORED_VALUE_BYTES}`);
  });
});
