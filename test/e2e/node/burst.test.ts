// End-to-end: a burst of 2,000 signed transfers from 50 senders, sent concurrently over HTTP to a
// regtest node that mines as soon as transactions are pending: every one is included, none stalls.
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {bytesToPrefixedHex, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rpc, waitForReceipt} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const SENDERS = 50;
const PER_SENDER = 40;
const IN_FLIGHT = 64;
const COW_KEY = keccak256(utf8ToBytes("cow"));

let node: RunningNode;

beforeAll(async () => {
  node = await startNode();
});

afterAll(async () => {
  await node?.stop();
});

function transfer(key: Uint8Array, nonce: number, to: Uint8Array, value: bigint): string {
  const values = {nonce: BigInt(nonce), gasPrice: 0n, gasLimit: 21_000n, to, value, data: new Uint8Array()};
  return bytesToPrefixedHex(Transaction.sign(values, key, 33).encode());
}

/** Sends every raw transaction with at most IN_FLIGHT requests outstanding; returns the hashes in order. */
async function sendAll(url: string, raws: string[]): Promise<string[]> {
  const hashes: string[] = new Array(raws.length);
  let next = 0;
  const worker = async () => {
    while (next < raws.length) {
      const i = next++;
      hashes[i] = await rpc<string>(url, "eth_sendRawTransaction", [raws[i]]);
    }
  };
  await Promise.all(Array.from({length: IN_FLIGHT}, worker));
  return hashes;
}

describe("a burst of 2,000 transactions", () => {
  it("includes every one", {timeout: 120_000}, async () => {
    const keys = Array.from({length: SENDERS}, (_, i) => keccak256(utf8ToBytes(`burst sender ${i}`)));
    const addresses = keys.map((k) => publicKeyToAddress(publicKeyOf(k)));
    const funding = addresses.map((to, i) => transfer(COW_KEY, i, to, 10n ** 18n));
    const fundingHashes = await sendAll(node.httpUrl, funding);
    await waitForReceipt(node.httpUrl, fundingHashes.at(-1)!);

    const sink = keccak256(utf8ToBytes("sink")).subarray(12);
    const raws: string[] = [];
    for (let n = 0; n < PER_SENDER; n++) for (let s = 0; s < SENDERS; s++) raws.push(transfer(keys[s]!, n, sink, 1n));
    const started = Date.now();
    const hashes = await sendAll(node.httpUrl, raws);
    for (const hash of hashes.slice(-SENDERS)) await waitForReceipt(node.httpUrl, hash, 60_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`burst: ${raws.length} transfers sent and included in ${seconds.toFixed(1)} s`);

    const receipts = await Promise.all(
      hashes.map((h) =>
        rpc<{status: string; blockNumber: string} | null>(node.httpUrl, "eth_getTransactionReceipt", [h]),
      ),
    );
    expect(receipts.filter((r) => r?.status === "0x1")).toHaveLength(raws.length);
    const balance = await rpc<string>(node.httpUrl, "eth_getBalance", [bytesToPrefixedHex(sink), "latest"]);
    expect(BigInt(balance)).toBe(BigInt(raws.length));
    expect(await rpc(node.httpUrl, "txpool_status")).toEqual({pending: 0, queued: 0});
  });
});
