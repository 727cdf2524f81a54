/**
 * Bitcoin transactions in both serializations: legacy, and segwit (BIP-144 marker and flag, then witnesses).
 * The txid is sha256d of the legacy form, so a segwit coinbase must be stripped of its witness before it is
 * compressed (docs/protocol/merged-mining.md §3 segwit note; xchain strips it, docs/protocol/README.md §2).
 */
import {concatBytes, sha256d} from "@xchain/utils";
import {ByteReader, uint32LE, uint64LE, varIntBytes} from "./codec.ts";
import {BitcoinDecodeError, BitcoinDecodeErrorCode} from "./errors.ts";

/** A transaction input; `prevTxid` is in internal byte order. */
export interface BitcoinTxInput {
  prevTxid: Uint8Array;
  prevIndex: number;
  script: Uint8Array;
  sequence: number;
  /** Witness stack items; empty for legacy transactions. */
  witness: Uint8Array[];
}

/** A transaction output; `value` in satoshis. */
export interface BitcoinTxOutput {
  value: bigint;
  script: Uint8Array;
}

/** A Bitcoin transaction's fields. */
export interface BitcoinTransaction {
  version: number;
  inputs: BitcoinTxInput[];
  outputs: BitcoinTxOutput[];
  lockTime: number;
}

/**
 * A decoded transaction with its exact bytes: `raw` as received, `legacy` without the witness (equal to `raw`
 * for legacy transactions).
 */
export interface ParsedBitcoinTransaction extends BitcoinTransaction {
  raw: Uint8Array;
  legacy: Uint8Array;
  hasWitness: boolean;
}

// Smallest encodings, used to bound counts before looping: outpoint + index + script length + sequence; value
// + script length.
const MIN_INPUT_SIZE = 41;
const MIN_OUTPUT_SIZE = 9;
const WITNESS_FLAG = 1;

function readInputs(r: ByteReader): BitcoinTxInput[] {
  const n = r.count(MIN_INPUT_SIZE, "input");
  const inputs: BitcoinTxInput[] = [];
  for (let i = 0; i < n; i++) {
    inputs.push({
      prevTxid: r.bytesView(32),
      prevIndex: r.u32(),
      script: r.varBytes("input script"),
      sequence: r.u32(),
      witness: [],
    });
  }
  return inputs;
}

function readOutputs(r: ByteReader): BitcoinTxOutput[] {
  const n = r.count(MIN_OUTPUT_SIZE, "output");
  const outputs: BitcoinTxOutput[] = [];
  for (let i = 0; i < n; i++) outputs.push({value: r.u64(), script: r.varBytes("output script")});
  return outputs;
}

/**
 * Reads one transaction at the reader's position. Like bitcoinj and Bitcoin Core, an empty input
 * list is the segwit marker: the next byte holds flags, and a non-zero flag byte means inputs and
 * outputs follow, then witnesses if bit 0 is set; any other flag bit is an error.
 */
export function readBitcoinTransaction(r: ByteReader): ParsedBitcoinTransaction {
  const start = r.position;
  const version = r.u32();
  let inputs = readInputs(r);
  let outputs: BitcoinTxOutput[] = [];
  let flags = 0;
  let bodyStart = start + 4;
  if (inputs.length === 0) {
    flags = r.u8();
    if (flags !== 0) {
      bodyStart = r.position;
      inputs = readInputs(r);
      outputs = readOutputs(r);
    }
  } else {
    outputs = readOutputs(r);
  }
  const bodyEnd = r.position;
  const hasWitness = (flags & WITNESS_FLAG) !== 0;
  if (hasWitness) {
    for (const input of inputs) {
      const items = r.count(1, "witness item");
      for (let i = 0; i < items; i++) input.witness.push(r.varBytes("witness item"));
    }
  }
  if ((flags & ~WITNESS_FLAG) !== 0) {
    throw new BitcoinDecodeError(
      {code: BitcoinDecodeErrorCode.UNKNOWN_TX_FLAGS, flags},
      `unknown transaction flags ${flags}`,
    );
  }
  const lockTime = r.u32();
  const raw = r.viewSince(start);
  const legacy = hasWitness
    ? concatBytes(raw.subarray(0, 4), raw.subarray(bodyStart - start, bodyEnd - start), raw.subarray(raw.length - 4))
    : raw;
  return {version, inputs, outputs, lockTime, raw, legacy, hasWitness};
}

/** Decodes exactly one transaction (legacy or segwit). */
export function parseBitcoinTransaction(bytes: Uint8Array): ParsedBitcoinTransaction {
  const r = new ByteReader(bytes, "Bitcoin transaction");
  const tx = readBitcoinTransaction(r);
  r.end();
  return tx;
}

/** The legacy serialization of a transaction (its witness removed; a legacy transaction is returned as is). */
export function stripWitness(transaction: Uint8Array): Uint8Array {
  return parseBitcoinTransaction(transaction).legacy;
}

/** The txid: sha256d of the legacy serialization, internal byte order. */
export function bitcoinTxid(tx: ParsedBitcoinTransaction): Uint8Array {
  return sha256d(tx.legacy);
}

/** The legacy serialization (no witness) of a transaction built from its fields. */
export function serializeBitcoinTransaction(tx: BitcoinTransaction): Uint8Array {
  const parts: Uint8Array[] = [uint32LE(tx.version), varIntBytes(tx.inputs.length)];
  for (const input of tx.inputs) {
    parts.push(input.prevTxid, uint32LE(input.prevIndex), varIntBytes(input.script.length), input.script);
    parts.push(uint32LE(input.sequence));
  }
  parts.push(varIntBytes(tx.outputs.length));
  for (const output of tx.outputs) parts.push(uint64LE(output.value), varIntBytes(output.script.length), output.script);
  parts.push(uint32LE(tx.lockTime));
  return concatBytes(...parts);
}
