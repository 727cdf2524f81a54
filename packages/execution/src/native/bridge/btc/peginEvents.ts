/**
 * The peg-in events of the Bridge (docs/protocol/native-contracts.md §6.6; rskj's `BridgeEvents`,
 * Solidity-style since RSKIP-146): topic0 is keccak-256 of the signature, indexed values are words,
 * the data is the ABI words of the others. Bitcoin hashes are in display order.
 */
import {bigIntToFixedBytes, concatBytes, keccak256, utf8ToBytes} from "@xchain/utils";

/** A log the Bridge emits (its address is the Bridge's). */
export interface BridgeLog {
  topics: Uint8Array[];
  data: Uint8Array;
}

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

const topic = (signature: string): Uint8Array => keccak256(utf8ToBytes(signature));
export const PEGIN_BTC_TOPIC = topic("pegin_btc(address,bytes32,int256,int256)");
export const REJECTED_PEGIN_TOPIC = topic("rejected_pegin(bytes32,int256)");
export const UNREFUNDABLE_PEGIN_TOPIC = topic("unrefundable_pegin(bytes32,int256)");

const word = (value: bigint | number): Uint8Array => bigIntToFixedBytes(BigInt(value), 32);
const addressWord = (address: Uint8Array): Uint8Array => concatBytes(new Uint8Array(12), address);

/** `pegin_btc(address indexed receiver, bytes32 indexed btcTxHash, int256 amount, int256 protocolVersion)`, amount in satoshis. */
export function peginBtcLog(
  receiver: Uint8Array,
  txid: Uint8Array,
  amountSat: bigint,
  protocolVersion: number,
): BridgeLog {
  return {
    topics: [PEGIN_BTC_TOPIC, addressWord(receiver), txid],
    data: concatBytes(word(amountSat), word(protocolVersion)),
  };
}

/** `rejected_pegin(bytes32 indexed btcTxHash, int256 reason)`. */
export const rejectedPeginLog = (txid: Uint8Array, reason: number): BridgeLog => ({
  topics: [REJECTED_PEGIN_TOPIC, txid],
  data: word(reason),
});

/** `unrefundable_pegin(bytes32 indexed btcTxHash, int256 reason)`. */
export const unrefundablePeginLog = (txid: Uint8Array, reason: number): BridgeLog => ({
  topics: [UNREFUNDABLE_PEGIN_TOPIC, txid],
  data: word(reason),
});
