import {regtestBridge} from "@xchain/chainspec";
import {bytesToHex, hexToBytes, keccak256, utf8ToBytes} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {PeginErrorCode} from "../../../../src/native/bridge/btc/errors.ts";
import {
  BtcLightClient,
  ConfirmationsResult,
  ReceiveHeaderResult,
} from "../../../../src/native/bridge/btc/lightClient.ts";
import {BridgeKey} from "../../../../src/native/bridge/storageKeys.ts";
import {hashOf, memoryBridgeStorage, mineChain, mineHeader, REGTEST_GENESIS, REGTEST_GENESIS_HASH} from "./support.ts";

const REGTEST = {heightIndex: true, tooMuchChainWorkFixed: true};
const genesis = hexToBytes(REGTEST_GENESIS);

async function fresh() {
  const {storage} = memoryBridgeStorage();
  return {storage, client: await BtcLightClient.open(storage, REGTEST)};
}

describe("the light client of a fresh regtest Bridge", () => {
  it("answers the spec's values: height 0, the genesis header and hash, initial height 0", async () => {
    const {client} = await fresh();
    expect(await client.bestChainHeight()).toBe(0);
    expect(client.initialBlockHeight()).toBe(0);
    expect(bytesToHex(await client.bestBlockHeader())).toBe(REGTEST_GENESIS);
    expect(bytesToHex(await client.headerByHeight(0))).toBe(REGTEST_GENESIS);
    expect(bytesToHex(await client.blockHashAtDepth(0))).toBe(REGTEST_GENESIS_HASH);
    expect(bytesToHex(await client.headerByHash(hexToBytes(REGTEST_GENESIS_HASH)))).toBe(REGTEST_GENESIS);
    expect(await client.headerByHash(new Uint8Array(32))).toHaveLength(0);
    expect(await client.parentHeaderByHash(hexToBytes(REGTEST_GENESIS_HASH))).toHaveLength(0);
    await expect(client.blockHashAtDepth(1)).rejects.toMatchObject({type: {code: PeginErrorCode.DEPTH_OUT_OF_RANGE}});
    await expect(client.blockHashAtDepth(-1)).rejects.toMatchObject({type: {code: PeginErrorCode.DEPTH_OUT_OF_RANGE}});
  });

  it("stores genesis lazily under rskj's keys: the 116-byte head and the height index at btcBlockHeight-0", async () => {
    const {storage} = await fresh();
    await storage.save();
    const head = await storage.get(BridgeKey.blockStoreChainHead);
    expect(head).toHaveLength(116);
    expect(bytesToHex(head.subarray(36))).toBe(REGTEST_GENESIS);
    expect(bytesToHex(head.subarray(0, 32))).toBe("02".padStart(64, "0"));
    // docs/protocol/native-contracts.md §10.5 gives the key of height 0.
    expect(bytesToHex(keccak256(utf8ToBytes("btcBlockHeight-0")))).toBe(
      "04e7879f9f786d37bfb9da99ca9ea71f66a545ddf08f8026e18a14c4203f80cd",
    );
    expect(bytesToHex(await storage.get(keccak256(utf8ToBytes("btcBlockHeight-0"))))).toBe(`a0${REGTEST_GENESIS_HASH}`);
    expect((await storage.get(hexToBytes(REGTEST_GENESIS_HASH))).length).toBe(116);
  });
});

describe("receiveHeader", () => {
  it("adds a mined header (0), then refuses it as stored (-4) and a next one within 300 s of RSK time (-1)", async () => {
    const {client, storage} = await fresh();
    const [h1, h2] = mineChain(genesis, 2) as [Uint8Array, Uint8Array];
    expect(await client.receiveHeader(h1, 1_000n)).toBe(ReceiveHeaderResult.OK);
    expect(await client.receiveHeader(h1, 2_000n)).toBe(ReceiveHeaderResult.ALREADY_STORED);
    expect(await client.receiveHeader(h2, 1_299n)).toBe(ReceiveHeaderResult.CALLED_TOO_SOON);
    expect(await client.receiveHeader(h2, 1_300n)).toBe(ReceiveHeaderResult.OK);
    expect(await client.bestChainHeight()).toBe(2);
    expect(bytesToHex(await client.blockHashAtDepth(0))).toBe(bytesToHex(hashOf(h2)));
    expect(bytesToHex(await client.parentHeaderByHash(hashOf(h2)))).toBe(bytesToHex(h1));
    // The RSK block time of the last success, an RLP integer.
    expect(bytesToHex(await storage.get(BridgeKey.receiveHeadersLastTimestamp))).toBe("820514");
  });

  it("answers -20 for a header that is not 80 bytes and -3 for an unknown parent", async () => {
    const {client} = await fresh();
    expect(await client.receiveHeader(new Uint8Array(81), 0n)).toBe(ReceiveHeaderResult.SIZE_MISMATCH);
    const orphan = mineHeader(mineHeader(genesis));
    expect(await client.receiveHeader(orphan, 0n)).toBe(ReceiveHeaderResult.PREVIOUS_NOT_FOUND);
  });

  it("answers -99 for a header above its target or with another nBits, and keeps the throttle untouched", async () => {
    const {client, storage} = await fresh();
    let weak = mineHeader(genesis);
    // Grind until a nonce fails the target: the light client must check the work, not trust it.
    for (let nonce = 0; ; nonce++) {
      const candidate = weak.slice();
      new DataView(candidate.buffer).setUint32(76, nonce, true);
      if ((hashOf(candidate)[0] as number) >= 0x80) {
        weak = candidate;
        break;
      }
    }
    expect(await client.receiveHeader(weak, 0n)).toBe(ReceiveHeaderResult.UNEXPECTED);
    expect(await client.receiveHeader(mineHeader(genesis, {bits: 0x203fffff}), 0n)).toBe(
      ReceiveHeaderResult.UNEXPECTED,
    );
    expect(await storage.get(BridgeKey.receiveHeadersLastTimestamp)).toHaveLength(0);
    expect(await client.bestChainHeight()).toBe(0);
  });

  it("answers -2 for a header more than 25 blocks below the best chain's tip", async () => {
    const {client} = await fresh();
    const chain = mineChain(genesis, 27);
    await client.receiveHeaders(chain);
    expect(await client.bestChainHeight()).toBe(27);
    // On genesis (height 1): 27 − 1 = 26 > 25. On block 1 (height 2): 25, accepted.
    expect(await client.receiveHeader(mineHeader(genesis, {nonce: 99}), 0n)).toBe(ReceiveHeaderResult.BLOCK_TOO_OLD);
    expect(await client.receiveHeader(mineHeader(chain[0] as Uint8Array, {nonce: 99}), 0n)).toBe(
      ReceiveHeaderResult.OK,
    );
    expect(await client.bestChainHeight()).toBe(27);
  });
});

describe("the best chain", () => {
  it("keeps a lighter branch aside, then reorganizes to a heavier one and rewrites the height index", async () => {
    const {client} = await fresh();
    const a = mineChain(genesis, 3, 1);
    const b = mineChain(genesis, 4, 2);
    await client.receiveHeaders(a);
    await client.receiveHeaders(b.slice(0, 3));
    // Equal work: the first chain stays the best; the branch is stored.
    expect(bytesToHex(await client.bestBlockHeader())).toBe(bytesToHex(a[2] as Uint8Array));
    expect(bytesToHex(await client.headerByHash(hashOf(b[2] as Uint8Array)))).toBe(bytesToHex(b[2] as Uint8Array));
    expect(bytesToHex(await client.headerByHeight(2))).toBe(bytesToHex(a[1] as Uint8Array));
    await client.receiveHeaders([b[3] as Uint8Array]);
    expect(await client.bestChainHeight()).toBe(4);
    for (let h = 1; h <= 4; h++)
      expect(bytesToHex(await client.headerByHeight(h))).toBe(bytesToHex(b[h - 1] as Uint8Array));
    expect(bytesToHex(await client.blockHashAtDepth(3))).toBe(bytesToHex(hashOf(b[0] as Uint8Array)));
  });

  it("receiveHeaders skips what it refuses and goes on; a header of another size fails the call", async () => {
    const {client} = await fresh();
    const [h1, h2] = mineChain(genesis, 2) as [Uint8Array, Uint8Array];
    await client.receiveHeaders([mineHeader(h1), h1, mineHeader(genesis, {bits: 0x203fffff}), h2]);
    expect(await client.bestChainHeight()).toBe(2);
    await expect(client.receiveHeaders([h1, new Uint8Array(79)])).rejects.toMatchObject({
      type: {code: PeginErrorCode.BAD_HEADER_SIZE, index: 1, length: 79},
    });
  });

  it("headerByHeight answers empty bytes above the tip and below the index's search limit", async () => {
    const {client} = await fresh();
    await client.receiveHeaders(mineChain(genesis, 20));
    // Head 20 > 10 + 5, so heights below btcHeightWhenBlockIndexActivates (10) are not searched.
    expect(await client.headerByHeight(9)).toHaveLength(0);
    expect(await client.headerByHeight(10)).toHaveLength(80);
    expect(await client.headerByHeight(21)).toHaveLength(0);
    expect(regtestBridge.btcHeightWhenBlockIndexActivates).toBe(10);
  });
});

describe("getBtcTransactionConfirmations", () => {
  it("counts the confirmations of a proven transaction and answers the spec's negative codes", async () => {
    const {client} = await fresh();
    const {merkleParent} = await import("@xchain/merged-mining");
    const {reverseBytes, sha256d} = await import("@xchain/utils");
    const txids = [0, 1, 2].map((i) => sha256d(Uint8Array.of(i)));
    // Three txids: root = H(H(t0,t1), H(t2,t2)); t2's branch is [t2 (itself, repeated), H(t0,t1)], path 0b11.
    const left = merkleParent(txids[0] as Uint8Array, txids[1] as Uint8Array);
    const root = merkleParent(left, merkleParent(txids[2] as Uint8Array, txids[2] as Uint8Array));
    const block = mineHeader(genesis, {merkleRoot: root});
    await client.receiveHeaders([block, ...mineChain(block, 4)]);
    const display = (h: Uint8Array) => reverseBytes(h);
    const branch = [display(txids[2] as Uint8Array), display(left)];
    const tx = display(txids[2] as Uint8Array);
    expect(await client.transactionConfirmations(tx, hashOf(block), 0b11, branch)).toBe(5);
    expect(await client.transactionConfirmations(tx, hashOf(block), 0b01, branch)).toBe(
      ConfirmationsResult.INVALID_MERKLE_BRANCH,
    );
    expect(await client.transactionConfirmations(tx, new Uint8Array(32), 0b11, branch)).toBe(
      ConfirmationsResult.UNKNOWN_BLOCK,
    );
    const side = mineHeader(genesis, {nonce: 5});
    await client.receiveHeaders([side]);
    expect(await client.transactionConfirmations(tx, hashOf(side), 0, [])).toBe(ConfirmationsResult.NOT_IN_BEST_CHAIN);
    await expect(client.transactionConfirmations(tx, hashOf(block), 0b111, branch)).rejects.toMatchObject({
      type: {code: PeginErrorCode.BAD_MERKLE_BRANCH},
    });
    // Gas: 27,000 + 315 × depth 4 + 144 × 2 hashes; the basic cost for an unknown block.
    expect(await client.transactionConfirmationsGas(hashOf(block), 2)).toBe(27_000n + 4n * 315n + 2n * 144n);
    expect(await client.transactionConfirmationsGas(new Uint8Array(32), 2)).toBe(27_000n);
  });
});
