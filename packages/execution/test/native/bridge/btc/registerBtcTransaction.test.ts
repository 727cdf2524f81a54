import {
  type BitcoinTxOutput,
  bitcoinMerkleRoot,
  bitcoinTxid,
  buildPartialMerkleTree,
  parseBitcoinTransaction,
} from "@xchain/merged-mining";
import {
  bytesToHex,
  concatBytes,
  hexToBytes,
  keccak256,
  publicKeyForms,
  publicKeyOf,
  reverseBytes,
  sha256d,
} from "@xchain/utils";
import {describe, expect, it} from "vitest";
import {PeginErrorCode} from "../../../../src/native/bridge/btc/errors.ts";
import {BtcLightClient} from "../../../../src/native/bridge/btc/lightClient.ts";
import {BridgeEvents} from "../../../../src/native/bridge/events.ts";

const PEGIN_BTC_TOPIC = BridgeEvents.peginBtc.topic0;
const REJECTED_PEGIN_TOPIC = BridgeEvents.rejectedPegin.topic0;
const UNREFUNDABLE_PEGIN_TOPIC = BridgeEvents.unrefundablePegin.topic0;

import {registerBtcTransaction} from "../../../../src/native/bridge/btc/registerBtcTransaction.ts";
import {
  federationScript,
  memoryBridgeStorage,
  mineChain,
  mineHeader,
  opReturnOutput,
  p2pkhScriptSig,
  pegInTransaction,
  REGTEST_GENESIS,
} from "./support.ts";

const genesis = hexToBytes(REGTEST_GENESIS);
const senderKey = publicKeyForms(concatBytes(Uint8Array.of(4), publicKeyOf(keccak256(Uint8Array.of(42))))).compressed;
const senderRsk = keccak256(publicKeyForms(senderKey).uncompressed).slice(12);
const fedOut = (value: bigint): BitcoinTxOutput => ({value, script: federationScript()});
const word = (n: number | bigint) => BigInt(n).toString(16).padStart(64, "0");

/**
 * A light client whose best chain holds `tx` in block 1 (alone by default: a one-transaction block, whose
 * PMT is the txid and root too, or among `txs`), with `confirmations` blocks in all from block 1 up.
 */
async function proven(
  tx: Uint8Array,
  confirmations = 3,
  txs?: Uint8Array[],
  leafOf = (t: Uint8Array) => bitcoinTxid(parseBitcoinTransaction(t)),
) {
  const {storage} = memoryBridgeStorage();
  const lightClient = await BtcLightClient.open(storage, {heightIndex: true, tooMuchChainWorkFixed: true});
  const txids = (txs ?? [tx]).map(leafOf);
  const index = (txs ?? [tx]).indexOf(tx);
  const block = mineHeader(genesis, {merkleRoot: bitcoinMerkleRoot(txids)});
  await lightClient.receiveHeaders([block, ...mineChain(block, confirmations - 1)]);
  const pmt = buildPartialMerkleTree(txids, index).serialized;
  const ctx = {storage, lightClient, rskBlockNumber: 77n, markUnrefundablePeginsProcessed: false};
  return {storage, lightClient, ctx, pmt, txid: reverseBytes(txids[index] as Uint8Array)};
}

describe("registerBtcTransaction: protocol 0 (a P2PKH sender)", () => {
  it("pays the sender's RSK account, emits pegin_btc, adds the UTXO and marks the tx processed at the RSK block", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [
      fedOut(1_000_000n),
      {value: 5n, script: Uint8Array.of(0x51)},
    ]);
    const {storage, ctx, pmt, txid} = await proven(tx);
    const result = await registerBtcTransaction(ctx, tx, 1, pmt);
    expect(result.outcome).toBe("registered");
    expect(bytesToHex(result.transfer?.to ?? new Uint8Array())).toBe(bytesToHex(senderRsk));
    expect(result.transfer?.wei).toBe(1_000_000n * 10n ** 10n);
    // docs/protocol/native-contracts.md §10.6 gives this topic0.
    expect(bytesToHex(PEGIN_BTC_TOPIC)).toBe("44cdc782a38244afd68336ab92a0b39f864d6c0b2a50fa1da58cafc93cd2ae5a");
    expect(result.logs.map((l) => l.topics.map(bytesToHex))).toEqual([
      [bytesToHex(PEGIN_BTC_TOPIC), bytesToHex(senderRsk).padStart(64, "0"), bytesToHex(txid)],
    ]);
    expect(bytesToHex(result.logs[0]?.data ?? new Uint8Array())).toBe(word(1_000_000) + word(0));
    expect(await storage.processedHeight(txid)).toBe(77n);
    // bitcoinj's UTXO: value u64 LE, script length u32 LE, script, txid, index, height 0, not coinbase.
    expect((await storage.activeFederationUtxos()).map(bytesToHex)).toEqual([
      `40420f0000000000${"17000000"}${bytesToHex(federationScript())}${bytesToHex(txid)}000000000000000000`,
    ]);
    expect((await registerBtcTransaction(ctx, tx, 1, pmt)).outcome).toBe("already-processed");
  });

  it("sums every output to the federation, and proves a tx of a bigger block through its PMT", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [fedOut(600_000n), fedOut(700_000n)]);
    const others = [0, 1, 2].map((i) => pegInTransaction(Uint8Array.of(i), [{value: 1n, script: Uint8Array.of(0x51)}]));
    const {ctx, pmt} = await proven(tx, 3, [others[0] as Uint8Array, tx, ...others.slice(1)]);
    const result = await registerBtcTransaction(ctx, tx, 1, pmt);
    expect(result.transfer?.wei).toBe(1_300_000n * 10n ** 10n);
    expect((await ctx.storage.activeFederationUtxos()).length).toBe(2);
  });
});

describe("registerBtcTransaction: protocol 1 (an RSKT OP_RETURN)", () => {
  it("pays the OP_RETURN's RSK address and reports protocol 1", async () => {
    const destination = hexToBytes("00000000000000000000000000000000000000aa");
    const tx = pegInTransaction(Uint8Array.of(0x51), [fedOut(500_000n), opReturnOutput(destination)]);
    const {ctx, pmt} = await proven(tx);
    const result = await registerBtcTransaction(ctx, tx, 1, pmt);
    expect(result.outcome).toBe("registered");
    expect(bytesToHex(result.transfer?.to ?? new Uint8Array())).toBe(bytesToHex(destination));
    expect(bytesToHex(result.logs[0]?.data ?? new Uint8Array())).toBe(word(500_000) + word(1));
  });

  it("refuses an invalid payload: a refund (processed) with a sender, unrefundable without one", async () => {
    const bad = {value: 0n, script: hexToBytes("6a0652534b540201")};
    const withSender = pegInTransaction(p2pkhScriptSig(senderKey), [fedOut(500_000n), bad]);
    const a = await proven(withSender);
    const refunded = await registerBtcTransaction(a.ctx, withSender, 1, a.pmt);
    expect(refunded.outcome).toBe("rejected-refundable");
    expect(refunded.transfer).toBeUndefined();
    expect(refunded.logs.map((l) => [bytesToHex(l.topics[0] as Uint8Array), bytesToHex(l.data)])).toEqual([
      [bytesToHex(REJECTED_PEGIN_TOPIC), word(4)],
    ]);
    expect(await a.storage.processedHeight(a.txid)).toBe(77n);

    const anonymous = pegInTransaction(Uint8Array.of(0x51), [fedOut(500_000n), bad]);
    const b = await proven(anonymous);
    const refused = await registerBtcTransaction(b.ctx, anonymous, 1, b.pmt);
    expect(refused.outcome).toBe("rejected-unrefundable");
    // The payload never parsed, so the protocol stays 0: LEGACY_PEGIN_UNDETERMINED_SENDER (1), as rskj maps it.
    expect(refused.logs.map((l) => [bytesToHex(l.topics[0] as Uint8Array), bytesToHex(l.data)])).toEqual([
      [bytesToHex(REJECTED_PEGIN_TOPIC), word(4)],
      [bytesToHex(UNREFUNDABLE_PEGIN_TOPIC), word(1)],
    ]);
    expect(await b.storage.processedHeight(b.txid)).toBeUndefined();
  });
});

describe("registerBtcTransaction: refused peg-ins", () => {
  it("an undetermined sender: rejected (3) and unrefundable (1), not marked processed on regtest", async () => {
    const tx = pegInTransaction(Uint8Array.of(0x51), [fedOut(500_000n)]);
    const {storage, ctx, pmt, txid} = await proven(tx);
    const result = await registerBtcTransaction(ctx, tx, 1, pmt);
    expect(result.logs.map((l) => bytesToHex(l.data))).toEqual([word(3), word(1)]);
    expect(await storage.processedHeight(txid)).toBeUndefined();
    expect((await registerBtcTransaction({...ctx, markUnrefundablePeginsProcessed: true}, tx, 1, pmt)).outcome).toBe(
      "rejected-unrefundable",
    );
    expect(await storage.processedHeight(txid)).toBe(77n);
  });

  it("a P2SH multisig sender: rejected (2) and processed (its refund is tier C)", async () => {
    const redeem = concatBytes(Uint8Array.of(0x51, 33), senderKey, Uint8Array.of(0x51, 0xae));
    const scriptSig = concatBytes(Uint8Array.of(0x00, 3, 1, 2, 3, redeem.length), redeem);
    const tx = pegInTransaction(scriptSig, [fedOut(500_000n)]);
    const {storage, ctx, pmt, txid} = await proven(tx);
    const result = await registerBtcTransaction(ctx, tx, 1, pmt);
    expect(result.outcome).toBe("rejected-refundable");
    expect(result.logs.map((l) => bytesToHex(l.data))).toEqual([word(2)]);
    expect(await storage.processedHeight(txid)).toBe(77n);
  });

  it("below the minimum: not a peg-in under the legacy rule (BTC height < 350), INVALID_AMOUNT from 350 on", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [fedOut(499_999n)]);
    const low = await proven(tx);
    expect((await registerBtcTransaction(low.ctx, tx, 1, low.pmt)).outcome).toBe("not-a-pegin");

    const {storage} = memoryBridgeStorage();
    const lightClient = await BtcLightClient.open(storage, {heightIndex: true, tooMuchChainWorkFixed: true});
    const base = mineChain(genesis, 349);
    const txid = bitcoinTxid(parseBitcoinTransaction(tx));
    const block = mineHeader(base[348] as Uint8Array, {merkleRoot: txid});
    await lightClient.receiveHeaders([...base, block, ...mineChain(block, 2)]);
    const ctx = {storage, lightClient, rskBlockNumber: 9n, markUnrefundablePeginsProcessed: false};
    const result = await registerBtcTransaction(ctx, tx, 350, buildPartialMerkleTree([txid], 0).serialized);
    expect(result.outcome).toBe("rejected-unrefundable");
    expect(result.logs.map((l) => bytesToHex(l.data))).toEqual([word(5), word(3)]);
  });
});

describe("registerBtcTransaction: what is ignored and what fails the call", () => {
  const tx = pegInTransaction(p2pkhScriptSig(senderKey), [fedOut(1_000_000n)]);

  it("ignores too few confirmations, a PMT without the tx, a header whose root differs, and a negative height", async () => {
    const twoConfirmations = await proven(tx, 2);
    expect((await registerBtcTransaction(twoConfirmations.ctx, tx, 1, twoConfirmations.pmt)).outcome).toBe(
      "not-validated",
    );
    const {ctx, pmt, storage, txid} = await proven(tx);
    const otherTree = buildPartialMerkleTree([sha256d(Uint8Array.of(1))], 0).serialized;
    expect((await registerBtcTransaction(ctx, tx, 1, otherTree)).outcome).toBe("not-validated");
    expect((await registerBtcTransaction(ctx, tx, 2, pmt)).outcome).toBe("not-validated");
    expect((await registerBtcTransaction(ctx, tx, -1, pmt)).outcome).toBe("not-validated");
    expect(await storage.processedHeight(txid)).toBeUndefined();
  });

  it("fails on a malformed PMT, a transaction without inputs or that does not parse", async () => {
    const {ctx, pmt} = await proven(tx);
    await expect(registerBtcTransaction(ctx, tx, 1, concatBytes(pmt, Uint8Array.of(0)))).rejects.toMatchObject({
      type: {code: PeginErrorCode.BAD_PARTIAL_MERKLE_TREE},
    });
    // Version, no inputs, then the segwit marker's flag 0 or 1 with no inputs after it, and the lock time.
    for (const noInputs of [hexToBytes("01000000000000000000"), hexToBytes("010000000001000000000000")]) {
      // The tree holds the hash of the bytes as given (the wtxid of the segwit form), as rskj looks it up.
      const proof = await proven(noInputs, 3, [tx, noInputs], sha256d);
      await expect(registerBtcTransaction(proof.ctx, noInputs, 1, proof.pmt)).rejects.toMatchObject({
        type: {code: PeginErrorCode.BAD_TRANSACTION},
      });
    }
  });
});
