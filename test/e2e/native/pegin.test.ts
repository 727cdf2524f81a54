// End-to-end: a peg-in on a real regtest node (docs/protocol/native-contracts.md §10.5, §10.6). The test
// mines Bitcoin regtest headers (real proof of work at 0x207fffff), feeds them to the Bridge's light
// client with receiveHeader transactions spaced by evm_increaseTime (the 300 s throttle runs on RSK
// block time), then registers a one-transaction block's peg-in with its partial merkle tree. RBTC moves
// from the Bridge to the sender's RSK account, the receipt carries pegin_btc, and
// isBtcTxHashAlreadyProcessed then answers true; everything is encoded and decoded with
// @rsksmart/rsk-precompiled-abis.
import {
  bitcoinTxid,
  buildPartialMerkleTree,
  decodeCompactBits,
  grindNonce,
  p2shOutputScript,
  parseBitcoinTransaction,
  REGTEST_MAX_TARGET_BITS,
  serializeBitcoinTransaction,
} from "@xchain/merged-mining";
import {bytesToHex, bytesToPrefixedHex, concatBytes, hexToBytes, reverseBytes, sha256d} from "@xchain/utils";
import {computeAddress, decodeBase58, id, SigningKey, toBeHex} from "ethers";
import {describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {bridgeInterface as abi, BRIDGE, BTC_REGTEST_GENESIS_HEADER, useRegtestNode} from "../support/nativeNode.ts";

const REGTEST_GENESIS = hexToBytes(BTC_REGTEST_GENESIS_HEADER);

const session = useRegtestNode();

/** A header on `parent` with `merkleRoot`, its nonce ground until the hash meets regtest's target. */
function mineHeader(parent: Uint8Array, merkleRoot: Uint8Array): Uint8Array {
  const time = new DataView(parent.buffer, parent.byteOffset + 68, 4).getUint32(0, true) + 600;
  const header = grindNonce(
    {version: 0x20000000, prevBlockHash: sha256d(parent), merkleRoot, time, bits: REGTEST_MAX_TARGET_BITS, nonce: 0},
    decodeCompactBits(REGTEST_MAX_TARGET_BITS),
  );
  if (!header) throw new Error("no nonce");
  return header;
}

async function view(name: string, args: unknown[] = []): Promise<unknown> {
  const answer = await session.provider.call({to: BRIDGE, data: abi.encodeFunctionData(name, args)});
  return abi.decodeFunctionResult(name, answer)[0];
}

async function send(name: string, args: unknown[]) {
  const tx = await session.cow.sendTransaction({
    to: BRIDGE,
    data: abi.encodeFunctionData(name, args),
    type: 0,
    gasLimit: 500_000,
  });
  const receipt = await tx.wait();
  if (!receipt) throw new Error("no receipt");
  return receipt;
}

describe("a peg-in on a regtest node", () => {
  it("moves RBTC to the sender of a proven Bitcoin transaction; isBtcTxHashAlreadyProcessed then says so", async () => {
    // The federation's P2SH address, as the Bridge answers it.
    const federationAddress = (await view("getFederationAddress")) as string;
    const decoded = toBeHex(decodeBase58(federationAddress), 25);
    const federationHash = hexToBytes(decoded.slice(4, 44));

    // A P2PKH spend by a key whose RSK account is empty: `<signature> <compressed public key>`.
    const sender = new SigningKey(id("pegin sender"));
    const publicKey = hexToBytes(sender.compressedPublicKey.slice(2));
    const scriptSig = concatBytes(Uint8Array.of(71), new Uint8Array(71).fill(0x30), Uint8Array.of(33), publicKey);
    const amount = 1_234_567n;
    const pegin = serializeBitcoinTransaction({
      version: 1,
      inputs: [
        {prevTxid: sha256d(Uint8Array.of(1)), prevIndex: 0, script: scriptSig, sequence: 0xffffffff, witness: []},
      ],
      outputs: [{value: amount, script: p2shOutputScript(federationHash)}],
      lockTime: 0,
    });
    const txid = bitcoinTxid(parseBitcoinTransaction(pegin));
    const txidHex = bytesToHex(reverseBytes(txid));

    // Block 1 holds the peg-in alone (its merkle root is the txid); blocks 2 and 3 confirm it.
    const block1 = mineHeader(REGTEST_GENESIS, txid);
    const block2 = mineHeader(block1, sha256d(Uint8Array.of(2)));
    const block3 = mineHeader(block2, sha256d(Uint8Array.of(3)));
    for (const header of [block1, block2, block3]) {
      await rpc(session.node.httpUrl, "evm_increaseTime", [301]);
      const receipt = await send("receiveHeader", [bytesToPrefixedHex(header)]);
      expect(receipt.status).toBe(1);
    }
    expect(await view("getBtcBlockchainBestChainHeight")).toBe(3n);
    expect(await view("getBtcBlockchainBestBlockHeader")).toBe(bytesToPrefixedHex(block3));
    expect(await view("isBtcTxHashAlreadyProcessed", [txidHex])).toBe(false);

    const destination = computeAddress(sender.publicKey);
    expect(await session.provider.getBalance(destination)).toBe(0n);
    const bridgeBefore = await session.provider.getBalance(BRIDGE);
    const pmt = buildPartialMerkleTree([txid], 0).serialized;
    const receipt = await send("registerBtcTransaction", [bytesToPrefixedHex(pegin), 1, bytesToPrefixedHex(pmt)]);
    expect(receipt.status).toBe(1);

    const wei = amount * 10n ** 10n;
    expect(await session.provider.getBalance(destination)).toBe(wei);
    expect(await session.provider.getBalance(BRIDGE)).toBe(bridgeBefore - wei);
    const events = receipt.logs.map((log) => abi.parseLog(log));
    expect(events.map((e) => [e?.name, ...(e?.args ?? [])])).toEqual([
      ["pegin_btc", destination, `0x${txidHex}`, amount, 0n],
    ]);
    expect(await view("isBtcTxHashAlreadyProcessed", [txidHex])).toBe(true);
    expect(await view("getBtcTxHashProcessedHeight", [txidHex])).toBe(BigInt(receipt.blockNumber));

    // The UTXO joined the federation's list, which getStateForDebugging reports.
    const state = hexToBytes(((await view("getStateForDebugging")) as string).slice(2));
    expect(bytesToHex(state)).toContain(txidHex);
  });
});
