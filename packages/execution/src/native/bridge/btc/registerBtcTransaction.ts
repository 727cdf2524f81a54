/**
 * `registerBtcTransaction(bytes tx, int256 height, bytes pmt)` (docs/protocol/native-contracts.md §10.6;
 * rskj's `BridgeSupport.registerBtcTransaction`, `registerPegIn`, `PegUtils`): a Bitcoin transaction
 * proven by a partial merkle tree against a header of the light client's best chain, with enough
 * confirmations, that pays the federation is a peg-in. A registered peg-in moves its amount × 10¹⁰ wei
 * from the Bridge to its sender's RSK account, adds its outputs to the federation's UTXOs and is
 * marked processed; a refused one leaves its events. A transaction that fails a check leaves no trace.
 */
import {
  BitcoinDecodeError,
  bitcoinTxid,
  extractPartialMerkleTree,
  type ParsedBitcoinTransaction,
  p2shOutputScript,
  parsePartialMerkleTree,
  uint32LE,
  uint64LE,
} from "@xchain/merged-mining";
import type {Log} from "@xchain/primitives";
import {concatBytes, equalBytes, reverseBytes, sha256d} from "@xchain/utils";
import {BridgeEvents, eventLog} from "../events.ts";
import {genesisFederation} from "../federation.ts";
import type {BridgeStorage} from "../storage.ts";
import {BTC_CHAIN_RULES} from "./chainRules.ts";
import {PeginError, PeginErrorCode} from "./errors.ts";
import type {BtcLightClient} from "./lightClient.ts";
import {type PeginInformation, peginInformation} from "./peginInfo.ts";
import {checkInputsCount, isCoinbase, parseAndVerify} from "./transactionChecks.ts";

/** `rejected_pegin`'s reasons (`RejectedPeginReason`). */
export const RejectedPeginReason = {
  PEGIN_CAP_SURPASSED: 1,
  LEGACY_PEGIN_MULTISIG_SENDER: 2,
  LEGACY_PEGIN_UNDETERMINED_SENDER: 3,
  PEGIN_V1_INVALID_PAYLOAD: 4,
  INVALID_AMOUNT: 5,
} as const;

/** `unrefundable_pegin`'s reasons (`NonRefundablePeginReason`). */
export const UnrefundablePeginReason = {
  LEGACY_PEGIN_UNDETERMINED_SENDER: 1,
  PEGIN_V1_REFUND_ADDRESS_NOT_SET: 2,
  INVALID_AMOUNT: 3,
  OUTPUTS_SENT_TO_DIFFERENT_TYPES_OF_FEDS: 4,
} as const;

/** One satoshi in wei. */
const WEI_PER_SATOSHI = 10n ** 10n;

export interface RegisterBtcTransactionContext {
  storage: BridgeStorage;
  lightClient: BtcLightClient;
  /** The RSK block executing the call: processed transactions are marked with its number. */
  rskBlockNumber: bigint;
  /** RSKIP-459 ∧ ¬RSKIP-551: refused, unrefundable peg-ins are marked processed too (never on regtest). */
  markUnrefundablePeginsProcessed: boolean;
}

/** What a registration did; the caller applies `transfer` and emits `logs` from the Bridge. */
export interface RegisterBtcTransactionResult {
  outcome:
    | "already-processed"
    | "not-validated"
    | "not-a-pegin"
    | "registered"
    | "rejected-refundable"
    | "rejected-unrefundable";
  /** The txid (display order) once the transaction parsed. */
  txid?: Uint8Array;
  logs: Log[];
  /** Bridge → `to`, in wei. */
  transfer?: {to: Uint8Array; wei: bigint};
}

const skipped = (
  outcome: RegisterBtcTransactionResult["outcome"],
  txid?: Uint8Array,
): RegisterBtcTransactionResult => ({
  outcome,
  ...(txid === undefined ? {} : {txid}),
  logs: [],
});

/**
 * `validationsForRegisterBtcTransaction`: enough confirmations, a well-formed tree that matches
 * `rawHash`, inputs, and a root equal to the merkle root of the best chain's header at `height`.
 * False means "ignore the transaction"; a malformed tree or transaction, or a height the store does
 * not search, throws PeginError (the call fails).
 */
async function validate(
  ctx: RegisterBtcTransactionContext,
  rawHash: Uint8Array,
  height: number,
  pmt: Uint8Array,
  raw: Uint8Array,
): Promise<boolean> {
  const best = await ctx.lightClient.bestChainHeight();
  if (height < 0 || best - height + 1 < ctx.storage.constants.btc2RskMinimumAcceptableConfirmations) return false;
  let root: Uint8Array;
  try {
    const {root: treeRoot, matched} = extractPartialMerkleTree(parsePartialMerkleTree(pmt));
    if (!matched.some((txid) => equalBytes(txid, reverseBytes(rawHash)))) return false;
    root = treeRoot;
  } catch (e) {
    if (!(e instanceof BitcoinDecodeError)) throw e;
    throw new PeginError({code: PeginErrorCode.BAD_PARTIAL_MERKLE_TREE, reason: e.message}, e.message);
  }
  checkInputsCount(raw);
  const block = await ctx.lightClient.mainChainBlockAt(height);
  // The witness root of a registered coinbase (RSKIP-143) is not kept: only the header's root proves.
  return equalBytes(root, block.header.subarray(36, 68));
}

/** bitcoinj's `UTXO.serializeToStream`: value, script, txid (display order), index, height 0, coinbase flag. */
function serializeUtxo(tx: ParsedBitcoinTransaction, txid: Uint8Array, index: number): Uint8Array {
  const output = tx.outputs[index] as ParsedBitcoinTransaction["outputs"][number];
  return concatBytes(
    uint64LE(output.value),
    uint32LE(output.script.length),
    output.script,
    txid,
    uint32LE(index),
    uint32LE(0),
    Uint8Array.of(isCoinbase(tx) ? 1 : 0),
  );
}

type Evaluation = {action: "register"} | {action: "refund"; reason: number} | {action: "no-refund"; reason: number};

/** `PegUtils.evaluatePegin` (RSKIP-379): the amounts, then the peg-in information. */
function evaluatePegin(fedValues: readonly bigint[], minimum: bigint, info: () => PeginInformation): Evaluation {
  if (fedValues.length === 0 || fedValues.some((v) => v < minimum)) {
    return {action: "no-refund", reason: RejectedPeginReason.INVALID_AMOUNT};
  }
  const {instructionsError, refundAddress, protocolVersion, senderType} = info();
  if (instructionsError !== undefined) {
    const reason = RejectedPeginReason.PEGIN_V1_INVALID_PAYLOAD;
    return refundAddress === undefined ? {action: "no-refund", reason} : {action: "refund", reason};
  }
  if (protocolVersion === 1 || senderType === "p2pkh") return {action: "register"};
  if (senderType === "p2sh-multisig")
    return {action: "refund", reason: RejectedPeginReason.LEGACY_PEGIN_MULTISIG_SENDER};
  return {action: "no-refund", reason: RejectedPeginReason.LEGACY_PEGIN_UNDETERMINED_SENDER};
}

/** `handleNonRefundablePegin`'s mapping of a rejection to its unrefundable reason. */
function unrefundableReason(rejected: number, protocolVersion: number): number {
  if (rejected === RejectedPeginReason.INVALID_AMOUNT) return UnrefundablePeginReason.INVALID_AMOUNT;
  if (rejected === RejectedPeginReason.LEGACY_PEGIN_MULTISIG_SENDER) {
    return UnrefundablePeginReason.OUTPUTS_SENT_TO_DIFFERENT_TYPES_OF_FEDS;
  }
  return protocolVersion === 1
    ? UnrefundablePeginReason.PEGIN_V1_REFUND_ADDRESS_NOT_SET
    : UnrefundablePeginReason.LEGACY_PEGIN_UNDETERMINED_SENDER;
}

/** `registerBtcTransaction` with RSKIP-379 active (every current network); see the file comment. */
export async function registerBtcTransaction(
  ctx: RegisterBtcTransactionContext,
  raw: Uint8Array,
  height: number,
  pmt: Uint8Array,
): Promise<RegisterBtcTransactionResult> {
  const {storage} = ctx;
  // The hash of the bytes as given: the wtxid of a segwit serialization.
  const rawHash = reverseBytes(sha256d(raw));
  if ((await storage.processedHeight(rawHash)) !== undefined) return skipped("already-processed");
  if (!(await validate(ctx, rawHash, height, pmt, raw))) return skipped("not-validated");
  const tx = parseAndVerify(raw);
  const txid = reverseBytes(bitcoinTxid(tx));
  if ((await storage.processedHeight(txid)) !== undefined) return skipped("already-processed", txid);

  const fedScript = p2shOutputScript(genesisFederation(storage.constants).addressHash160);
  const fedOutputs = tx.outputs.flatMap((output, index) => (equalBytes(output.script, fedScript) ? [index] : []));
  const fedValues = fedOutputs.map((i) => (tx.outputs[i] as ParsedBitcoinTransaction["outputs"][number]).value);
  const minimum = storage.constants.minimumPeginTxValue;
  // `PegUtils.getTransactionType`: below the peg-out index's height the legacy rule (no output to the
  // federation under the minimum) decides; from it, any output to the federation. Spends from the
  // federation (peg-outs, migrations) need its signatures and are not recognized (tier C).
  const isPegin =
    height >= BTC_CHAIN_RULES[storage.constants.btcParams.id].pegoutIndexFromHeight
      ? fedOutputs.length > 0
      : !fedValues.some((v) => v < minimum);
  if (!isPegin) return skipped("not-a-pegin", txid);

  let info: PeginInformation | undefined;
  const peginInfo = (): PeginInformation => {
    info ??= peginInformation(tx);
    return info;
  };
  const evaluation = evaluatePegin(fedValues, minimum, peginInfo);
  const markProcessed = () => storage.setProcessedHeight(txid, ctx.rskBlockNumber);

  if (evaluation.action === "register") {
    const destination = peginInfo().rskDestination as Uint8Array;
    const amount = fedValues.reduce((a, b) => a + b, 0n);
    const utxos = await storage.activeFederationUtxos();
    storage.setActiveFederationUtxos([...utxos, ...fedOutputs.map((i) => serializeUtxo(tx, txid, i))]);
    markProcessed();
    return {
      outcome: "registered",
      txid,
      logs: [eventLog(BridgeEvents.peginBtc, [destination, txid, amount, BigInt(peginInfo().protocolVersion)])],
      transfer: {to: destination, wei: amount * WEI_PER_SATOSHI},
    };
  }
  const rejected = eventLog(BridgeEvents.rejectedPegin, [txid, BigInt(evaluation.reason)]);
  if (evaluation.action === "refund") {
    // rskj also builds a refund to the sender and queues it for the federation to sign: tier C (docs/protocol/native-contracts.md §10.6).
    markProcessed();
    return {outcome: "rejected-refundable", txid, logs: [rejected]};
  }
  const protocolVersion = info?.protocolVersion ?? 0;
  if (ctx.markUnrefundablePeginsProcessed) markProcessed();
  return {
    outcome: "rejected-unrefundable",
    txid,
    logs: [
      rejected,
      eventLog(BridgeEvents.unrefundablePegin, [txid, BigInt(unrefundableReason(evaluation.reason, protocolVersion))]),
    ],
  };
}
