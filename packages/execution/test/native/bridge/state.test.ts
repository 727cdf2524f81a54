/** getStateForDebugging and eth_bridgeState (docs/protocol/native-contracts.md §10.11). */
import {regtestBridge} from "@xchain/chainspec";
import {bytesStorage} from "@xchain/state";
import {MemoryWords} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {encodePegoutsWaitingForSignatures} from "../../../src/native/bridge/serialization.ts";
import {bridgeStateJson, encodeStateForDebugging} from "../../../src/native/bridge/state.ts";
import {BridgeStorage} from "../../../src/native/bridge/storage.ts";
import {BridgeKey} from "../../../src/native/bridge/storageKeys.ts";

const storageOf = (words = new MemoryWords()) => new BridgeStorage(bytesStorage(words), regtestBridge);

describe("a fresh network's Bridge state", () => {
  it("encodes as 0xcb8081c081c081c081c08180", async () => {
    expect(bytesToHex(await encodeStateForDebugging(storageOf()))).toBe("cb8081c081c081c081c08180");
  });

  it("answers eth_bridgeState's object with rskj's keys in rskj's order", async () => {
    const json = await bridgeStateJson(storageOf());
    expect(JSON.stringify(json)).toBe('{"btcBlockchainBestChainHeight":0,"rskTxsWaitingForSignatures":[]}');
  });
});

describe("a Bridge with a queued request and peg-outs waiting for signatures", () => {
  // Two hashes ordered differently by their first and by their last byte.
  const a = hexToBytes(`01${"00".repeat(30)}ff`);
  const b = hexToBytes(`ff${"00".repeat(30)}01`);

  it("lists the waiting hashes in Keccak256.compareTo order (last byte first), 64 hex digits without 0x", async () => {
    const words = new MemoryWords();
    await bytesStorage(words).putBytes(
      BridgeKey.rskTxsWaitingFS,
      encodePegoutsWaitingForSignatures([
        {rskTxHash: a, btcTx: hexToBytes("aa")},
        {rskTxHash: b, btcTx: hexToBytes("bb")},
      ]),
    );
    const json = await bridgeStateJson(storageOf(words));
    expect(json.rskTxsWaitingForSignatures).toEqual([bytesToHex(b), bytesToHex(a)]);
  });

  it("wraps each collection as an RLP string, the queue in its with-hash form and the next height as RLP", async () => {
    const storage = storageOf();
    storage.setReleaseRequestQueue([{destinationHash160: hexToBytes("11".repeat(20)), amount: 1n, rskTxHash: a}]);
    const encoded = bytesToHex(await encodeStateForDebugging(storage));
    const queue = `f794${"11".repeat(20)}01a0${bytesToHex(a)}`;
    // list(0x80, "c0", "c0", queue (56 bytes: 0xb838 prefix), "c0", "80"): 67 bytes
    expect(encoded).toBe(`f8438081c081c0b838${queue}81c08180`);
  });
});
