/**
 * Who a peg-in pays on RSK (docs/protocol/native-contracts.md §10.6; rskj's `PeginInformation`,
 * `btcLockSender/*`, `pegininstructions/*`): the sender read from the first input (protocol 0), then
 * a `RSKT` OP_RETURN output (protocol 1) that overrides the destination and may carry a refund address.
 */
import {
  BitcoinDecodeError,
  OP_RETURN,
  type ParsedBitcoinTransaction,
  parseScriptChunks,
  type ScriptChunk,
} from "@xchain/merged-mining";
import {equalBytes, hash160, keccak256, publicKeyForms} from "@xchain/utils";
import {PeginError, PeginErrorCode} from "./errors.ts";

/** The sender's kind (`TxSenderAddressType`); only P2PKH senders are paid on RSK by protocol 0 here. */
export type SenderType = "p2pkh" | "p2sh-multisig" | "unknown";

/** A Bitcoin address: a P2PKH or P2SH hash160. */
export interface BtcAddress {
  type: "p2pkh" | "p2sh";
  hash: Uint8Array;
}

/** What `PeginInformation.parse` learned; `instructionsError` is set when the OP_RETURN was refused. */
export interface PeginInformation {
  protocolVersion: 0 | 1;
  senderType: SenderType;
  /** The RSK account to credit (from the sender's key, or the OP_RETURN). */
  rskDestination?: Uint8Array;
  /** Where a refund would go: the sender, or the OP_RETURN's refund address. */
  refundAddress?: BtcAddress;
  /** Why the OP_RETURN instructions are invalid (rskj's `PeginInstructionsException`). */
  instructionsError?: string;
}

const RSKT = Uint8Array.of(0x52, 0x53, 0x4b, 0x54);
const OP_1 = 0x51;
const OP_16 = 0x60;
const OP_CHECKMULTISIG = 0xae;
const OP_CHECKMULTISIGVERIFY = 0xaf;
const OP_PUSHDATA4 = 0x4e;

const isOpcode = (chunk: ScriptChunk): boolean => chunk.opcode > OP_PUSHDATA4;
/** bitcoinj's `decodeFromOpN` for OP_1 … OP_16; other opcodes count as 0 here (rskj then refuses them). */
const smallNumber = (opcode: number): number => (opcode >= OP_1 && opcode <= OP_16 ? opcode - OP_1 + 1 : 0);

/** The chunks of the first input's script; a script that does not parse fails the call, as in rskj. */
function firstInputChunks(tx: ParsedBitcoinTransaction): ScriptChunk[] | undefined {
  const input = tx.inputs[0];
  if (input === undefined) return undefined;
  try {
    return parseScriptChunks(input.script);
  } catch (e) {
    if (!(e instanceof BitcoinDecodeError)) throw e;
    throw new PeginError({code: PeginErrorCode.BAD_TRANSACTION, reason: "unparseable input script"}, e.message);
  }
}

/** bitcoinj's `Script.isSentToMultiSig`. */
function isMultisigScript(script: Uint8Array): boolean {
  let chunks: ScriptChunk[];
  try {
    chunks = parseScriptChunks(script);
  } catch (e) {
    if (e instanceof BitcoinDecodeError) return false;
    throw e;
  }
  const last = chunks[chunks.length - 1];
  const m = chunks[chunks.length - 2];
  if (chunks.length < 4 || last === undefined || m === undefined || !isOpcode(last) || !isOpcode(m)) return false;
  if (last.opcode !== OP_CHECKMULTISIG && last.opcode !== OP_CHECKMULTISIGVERIFY) return false;
  const keys = smallNumber(m.opcode);
  if (keys < 1 || chunks.length !== 3 + keys) return false;
  if (chunks.slice(1, -2).some(isOpcode)) return false;
  return smallNumber((chunks[0] as ScriptChunk).opcode) >= 1;
}

/**
 * `BtcLockSenderProvider` for legacy transactions: a P2PKH spend (`<sig> <pubkey>`) pays the RSK
 * account of that key; a P2SH multisig spend (`OP_0 <sigs…> <redeem script>`) is known but has no RSK
 * account. (P2SH-P2WPKH and P2SH-P2WSH senders need a witness, which no peg-in can prove here: docs/protocol/native-contracts.md §10.6.)
 */
function senderOf(
  tx: ParsedBitcoinTransaction,
): Pick<PeginInformation, "senderType" | "rskDestination" | "refundAddress"> {
  const chunks = firstInputChunks(tx);
  if (chunks === undefined) return {senderType: "unknown"};
  const key = chunks[1]?.data;
  if (chunks.length === 2 && key !== undefined) {
    try {
      const {uncompressed} = publicKeyForms(key);
      return {
        senderType: "p2pkh",
        rskDestination: keccak256(uncompressed).slice(12),
        refundAddress: {type: "p2pkh", hash: hash160(key)},
      };
    } catch {
      // Not a point on the curve: not a P2PKH sender (bitcoinj's `fromPublicOnly` throws, `tryParse` says no).
    }
  }
  const redeem = chunks[chunks.length - 1]?.data;
  if (chunks.length >= 3 && redeem !== undefined && isMultisigScript(redeem)) {
    return {senderType: "p2sh-multisig", refundAddress: {type: "p2sh", hash: hash160(redeem)}};
  }
  return {senderType: "unknown"};
}

/**
 * `PeginInstructionsProvider.extractOpReturnData`: the data of the one output `OP_RETURN <RSKT…>`;
 * undefined when there is none; a string (the error) when there are several or an output script does not parse.
 */
function opReturnData(tx: ParsedBitcoinTransaction): Uint8Array | string | undefined {
  let data: Uint8Array | undefined;
  for (const output of tx.outputs) {
    let chunks: ScriptChunk[];
    try {
      chunks = parseScriptChunks(output.script);
    } catch (e) {
      if (e instanceof BitcoinDecodeError) return "an output script does not parse";
      throw e;
    }
    const payload = chunks[1]?.data;
    if (chunks[0]?.opcode !== OP_RETURN || payload === undefined || payload.length < 4) continue;
    if (!equalBytes(payload.subarray(0, 4), RSKT)) continue;
    if (data !== undefined) return "more than one RSKT OP_RETURN output";
    data = payload;
  }
  return data;
}

const P2PKH_REFUND = 1;
const P2SH_REFUND = 2;

/** `PeginInstructionsVersion1`: `RSKT ‖ 01 ‖ rskAddress(20) [‖ type(1) ‖ hash160(20)]`. */
function parseInstructions(data: Uint8Array): {rskDestination: Uint8Array; refundAddress?: BtcAddress} | string {
  if (data.length < 5) return `instructions of ${data.length} bytes`;
  if (data[4] !== 1) return `protocol version ${data[4]}`;
  if (data.length !== 25 && data.length !== 46) return `version 1 instructions of ${data.length} bytes`;
  const rskDestination = data.slice(5, 25);
  if (data.length === 25) return {rskDestination};
  const type = data[25];
  const hash = data.slice(26, 46);
  if (type === P2PKH_REFUND) return {rskDestination, refundAddress: {type: "p2pkh", hash}};
  if (type === P2SH_REFUND) return {rskDestination, refundAddress: {type: "p2sh", hash}};
  return `refund address type ${type}`;
}

/** `PeginInformation.parse` (RSKIP-170 and RSKIP-379 active). */
export function peginInformation(tx: ParsedBitcoinTransaction): PeginInformation {
  const info: PeginInformation = {protocolVersion: 0, ...senderOf(tx)};
  const data = opReturnData(tx);
  if (data === undefined) return info;
  const instructions = typeof data === "string" ? data : parseInstructions(data);
  // An instructions error leaves the protocol at 0 and the sender's refund address in place, as in rskj.
  if (typeof instructions === "string") return {...info, instructionsError: instructions};
  return {
    ...info,
    protocolVersion: 1,
    rskDestination: instructions.rskDestination,
    refundAddress: instructions.refundAddress ?? info.refundAddress,
  };
}
