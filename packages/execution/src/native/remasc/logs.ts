/**
 * REMASC's `mining_fee` log (rskj `RemascFeesPayer.logPayment`; docs/protocol/native-contracts.md
 * §11.3): emitted by REMASC for every payment, zero ones included.
 */
import {setLengthLeft} from "@ethereumjs/util";
import {encodeRlp, type Log, REMASC_ADDRESS} from "@xchain/primitives";
import {bigIntToBytes, utf8ToBytes} from "@xchain/utils";

/** The first topic: "mining_fee_topic" left-padded to a word (rskj `DataWord.fromString`). */
export const MINING_FEE_TOPIC: Uint8Array = setLengthLeft(utf8ToBytes("mining_fee_topic"), 32);

/**
 * The log of a payment of `value` wei to `to` for the processed block `blockHash`: topics
 * [MINING_FEE_TOPIC, `to` as a word], data RLP [blockHash, value] (rskj `RLP.encodeCoin`: 0 is `80`).
 */
export function miningFeeLog(blockHash: Uint8Array, to: Uint8Array, value: bigint): Log {
  return {
    address: REMASC_ADDRESS,
    topics: [MINING_FEE_TOPIC, setLengthLeft(to, 32)],
    data: encodeRlp([blockHash, bigIntToBytes(value)]),
  };
}
