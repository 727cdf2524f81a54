/** The Bridge's storage keys, encodings and fresh values (docs/protocol/native-contracts.md §10.4, §10.3). */
import {regtestBridge} from "@xchain/chainspec";
import {bytesStorage} from "@xchain/state";
import {MemoryWords} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {BridgeStorageError} from "../../../src/native/bridge/errors.ts";
import {BridgeStorage} from "../../../src/native/bridge/storage.ts";
import {
  BridgeKey,
  blockHeightKey,
  compoundKey,
  plainKey,
  processedTxKey,
} from "../../../src/native/bridge/storageKeys.ts";
import {decodeStoredBlock, encodeStoredBlock} from "../../../src/native/bridge/storedBlock.ts";

const GENESIS_HEADER =
  "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4adae5494dffff7f2002000000";
const GENESIS_HASH = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206";
const TXID = hexToBytes(`${"aa".repeat(31)}01`);

function fresh(): {words: MemoryWords; storage: BridgeStorage} {
  const words = new MemoryWords();
  return {words, storage: new BridgeStorage(bytesStorage(words), regtestBridge)};
}

describe("storage keys", () => {
  it("a plain key is its ASCII left-padded to a word (DataWord.fromString)", () => {
    expect(bytesToHex(BridgeKey.blockStoreChainHead)).toBe(`${"00".repeat(13)}626c6f636b53746f7265436861696e48656164`);
    expect(bytesToHex(plainKey("feePerKb"))).toBe(
      `${"00".repeat(24)}${bytesToHex(new TextEncoder().encode("feePerKb"))}`,
    );
  });

  it("a compound key is keccak-256 of `name-id` (DataWord.fromLongString)", () => {
    expect(bytesToHex(blockHeightKey(0))).toBe("04e7879f9f786d37bfb9da99ca9ea71f66a545ddf08f8026e18a14c4203f80cd");
    expect(bytesToHex(processedTxKey(TXID))).toBe(bytesToHex(compoundKey("btcTxHashAP", bytesToHex(TXID))));
  });
});

describe("fresh values (nothing stored)", () => {
  it("fee per kb, locking cap, next peg-out height, active federation height: the constants and zeros", async () => {
    const {words, storage} = fresh();
    expect(await storage.feePerKb()).toBe(100_000n);
    expect(await storage.lockingCap()).toEqual({value: 100_000_000_000n, stored: false});
    expect(await storage.nextPegoutHeight()).toBe(0n);
    expect(await storage.activeFederationCreationBlockHeight()).toBe(0n);
    expect(await storage.processedHeight(TXID)).toBeUndefined();
    expect(await storage.releaseRequestQueue()).toEqual([]);
    expect(await storage.pegoutsWaitingForConfirmations()).toEqual([]);
    expect(await storage.pegoutsWaitingForSignatures()).toEqual([]);
    expect(await storage.activeFederationUtxos()).toEqual([]);
    expect(words.words.size).toBe(0);
  });

  it("the light client's head is the regtest Bitcoin genesis at height 0, work 2, and not stored", async () => {
    const {words, storage} = fresh();
    const head = await storage.chainHead();
    expect(head).toEqual({header: hexToBytes(GENESIS_HEADER), chainWork: 2n, height: 0});
    expect(bytesToHex((await storage.blockHashAtHeight(0)) as Uint8Array)).toBe(GENESIS_HASH);
    expect(await storage.blockHashAtHeight(1)).toBeUndefined();
    expect((await storage.storedBlock(hexToBytes(GENESIS_HASH)))?.height).toBe(0);
    expect(words.words.size).toBe(0);
  });
});

describe("writes", () => {
  it("are held until save(), and read back before it", async () => {
    const {words, storage} = fresh();
    storage.setLockingCap(123n);
    storage.setProcessedHeight(TXID, 7n);
    expect(await storage.lockingCap()).toEqual({value: 123n, stored: true});
    expect(words.words.size).toBe(0);
    await storage.save();
    const reread = new BridgeStorage(bytesStorage(words), regtestBridge);
    expect(await reread.lockingCap()).toEqual({value: 123n, stored: true});
    expect(await reread.processedHeight(TXID)).toBe(7n);
    // rskj's RLP integers: 123 is 0x7b, 7 is 0x07.
    expect(bytesToHex(await bytesStorage(words).getBytes(BridgeKey.lockingCap))).toBe("7b");
  });

  it("the release request queue goes to both keys as rskj saves it: the legacy one an empty list", async () => {
    const {words, storage} = fresh();
    const entry = {
      destinationHash160: hexToBytes("11".repeat(20)),
      amount: 300_000n,
      rskTxHash: hexToBytes("22".repeat(32)),
    };
    storage.setReleaseRequestQueue([entry]);
    await storage.save();
    const raw = bytesStorage(words);
    expect(bytesToHex(await raw.getBytes(BridgeKey.releaseRequestQueue))).toBe("c0");
    expect(bytesToHex(await raw.getBytes(BridgeKey.releaseRequestQueueWithTxHash))).toBe(
      `f83a94${"11".repeat(20)}830493e0a0${"22".repeat(32)}`,
    );
    expect(await new BridgeStorage(raw, regtestBridge).releaseRequestQueue()).toEqual([entry]);
  });

  it("ensureBtcBlockStore stores the genesis and makes it the head, as rskj's checkIfInitialized", async () => {
    const {words, storage} = fresh();
    await storage.ensureBtcBlockStore();
    await storage.save();
    const raw = bytesStorage(words);
    const head = await raw.getBytes(BridgeKey.blockStoreChainHead);
    expect(head.length).toBe(116);
    expect(bytesToHex(head)).toBe(`${"00".repeat(31)}02${"00000000"}${GENESIS_HEADER}`);
    expect(bytesToHex(await raw.getBytes(hexToBytes(GENESIS_HASH)))).toBe(bytesToHex(head));
  });
});

describe("stored blocks", () => {
  it("decode the legacy 96-byte form and the 116-byte one", () => {
    const block = {header: hexToBytes(GENESIS_HEADER), chainWork: 5n, height: 3};
    expect(decodeStoredBlock("x", encodeStoredBlock(block))).toEqual(block);
    const legacy = hexToBytes(`${"00".repeat(11)}05${"00000003"}${GENESIS_HEADER}`);
    expect(decodeStoredBlock("x", legacy)).toEqual(block);
    expect(() => decodeStoredBlock("x", new Uint8Array(100))).toThrow(BridgeStorageError);
  });
});

describe("undecodable values fail with BridgeStorageError", () => {
  it("a queue whose element count is not a multiple of 3", async () => {
    const {words, storage} = fresh();
    await bytesStorage(words).putBytes(BridgeKey.releaseRequestQueueWithTxHash, hexToBytes("c20102"));
    await expect(storage.releaseRequestQueue()).rejects.toThrow(/multiple of 3/);
  });

  it("an integer that is not RLP", async () => {
    const {words, storage} = fresh();
    await bytesStorage(words).putBytes(BridgeKey.feePerKb, hexToBytes("b9"));
    await expect(storage.feePerKb()).rejects.toBeInstanceOf(BridgeStorageError);
  });
});
