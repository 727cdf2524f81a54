/**
 * The checks rskj makes on a peg-in's raw transaction (docs/protocol/native-contracts.md §10.6):
 * `BridgeUtils.validateInputsCount` on the bytes, then bitcoinj's parse and `BtcTransaction.verify`.
 * Each failure fails the Bridge call.
 */
import {BitcoinDecodeError, type ParsedBitcoinTransaction, parseBitcoinTransaction} from "@xchain/merged-mining";
import {bytesToHex} from "@xchain/utils";
import {PeginError, PeginErrorCode} from "./errors.ts";

const MAX_BLOCK_SIZE = 1_000_000;
const MAX_MONEY = 21_000_000n * 100_000_000n;
const LONG_SIGN = 1n << 63n;
const NULL_INDEX = 0xffffffff;

function bad(reason: string): PeginError {
  return new PeginError({code: PeginErrorCode.BAD_TRANSACTION, reason}, `Bitcoin transaction: ${reason}`);
}

/** bitcoinj's `VarInt(bytes, offset).value`; a read past the end fails as Java's would. */
function varIntAt(bytes: Uint8Array, offset: number): bigint {
  const first = bytes[offset];
  if (first === undefined) throw bad("too short to hold its input count");
  const size = first < 0xfd ? 0 : first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
  if (offset + 1 + size > bytes.length) throw bad("too short to hold its input count");
  if (size === 0) return BigInt(first);
  let value = 0n;
  for (let i = size; i >= 1; i--) value = (value << 8n) | BigInt(bytes[offset + i] as number);
  return value;
}

/**
 * `validateInputsCount` (RSKIP-143): a transaction whose input count is 0 is refused unless it is the
 * segwit form (marker 0, flag 1) with inputs after the flag.
 */
export function checkInputsCount(raw: Uint8Array): void {
  if (varIntAt(raw, 4) !== 0n) return;
  if (varIntAt(raw, 5) !== 1n) return;
  if (varIntAt(raw, 6) === 0n) throw bad("no inputs");
}

const isNullOutpoint = (input: ParsedBitcoinTransaction["inputs"][number]): boolean =>
  input.prevIndex === NULL_INDEX && input.prevTxid.every((b) => b === 0);

/** bitcoinj's `isCoinBase`: one input, spending the null outpoint. */
export const isCoinbase = (tx: ParsedBitcoinTransaction): boolean =>
  tx.inputs.length === 1 && isNullOutpoint(tx.inputs[0] as ParsedBitcoinTransaction["inputs"][number]);

/** Parses the transaction and runs `BtcTransaction.verify`; throws PeginError BAD_TRANSACTION. */
export function parseAndVerify(raw: Uint8Array): ParsedBitcoinTransaction {
  let tx: ParsedBitcoinTransaction;
  try {
    tx = parseBitcoinTransaction(raw);
  } catch (e) {
    if (e instanceof BitcoinDecodeError) throw bad(e.message);
    throw e;
  }
  if (tx.inputs.length === 0 || tx.outputs.length === 0) throw bad("no inputs or no outputs");
  if (raw.length > MAX_BLOCK_SIZE) throw bad(`${raw.length} bytes, larger than a block`);
  const outpoints = new Set<string>();
  for (const input of tx.inputs) {
    const outpoint = `${bytesToHex(input.prevTxid)}:${input.prevIndex}`;
    if (outpoints.has(outpoint)) throw bad(`outpoint ${outpoint} spent twice`);
    outpoints.add(outpoint);
  }
  let total = 0n;
  for (const output of tx.outputs) {
    // bitcoinj reads the value as a signed long.
    if (output.value >= LONG_SIGN) throw bad("negative output value");
    total += output.value;
    if (total > MAX_MONEY) throw bad("outputs above 21 million bitcoin");
  }
  if (isCoinbase(tx)) {
    const length = (tx.inputs[0] as ParsedBitcoinTransaction["inputs"][number]).script.length;
    if (length < 2 || length > 100) throw bad(`coinbase script of ${length} bytes`);
  } else if (tx.inputs.some(isNullOutpoint)) {
    throw bad("a coinbase input in a non-coinbase transaction");
  }
  return tx;
}
