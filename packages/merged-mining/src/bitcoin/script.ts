/**
 * Bitcoin script parsed into chunks, as bitcoinj-thin's `Script.parse` does: each push opcode
 * (0x00–0x4b, OP_PUSHDATA1/2/4) with its data, every other opcode bare. Used to read the sender of
 * a peg-in and its OP_RETURN (docs/protocol/native-contracts.md §10.6).
 */
import {readUint32LE} from "@xchain/utils";
import {BitcoinDecodeError, BitcoinDecodeErrorCode} from "./errors.ts";

/** One script element: `data` is set for pushes (empty for OP_0), undefined for other opcodes. */
export interface ScriptChunk {
  opcode: number;
  data?: Uint8Array;
}

export const OP_0 = 0x00;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_RETURN = 0x6a;
export const OP_DUP = 0x76;
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_HASH160 = 0xa9;
export const OP_CHECKSIG = 0xac;

function truncated(script: Uint8Array, offset: number, needed: number): BitcoinDecodeError {
  return new BitcoinDecodeError(
    {code: BitcoinDecodeErrorCode.TRUNCATED, what: "script", offset, needed},
    `script of ${script.length} bytes: push at byte ${offset} needs ${needed} more bytes`,
  );
}

/** The chunks of a script; throws BitcoinDecodeError TRUNCATED when a push runs past the end. */
export function parseScriptChunks(script: Uint8Array): ScriptChunk[] {
  const chunks: ScriptChunk[] = [];
  let i = 0;
  while (i < script.length) {
    const opcode = script[i++] as number;
    let length: number;
    if (opcode < OP_PUSHDATA1) length = opcode;
    else if (opcode === OP_PUSHDATA1) {
      if (i + 1 > script.length) throw truncated(script, i, 1);
      length = script[i] as number;
      i += 1;
    } else if (opcode === OP_PUSHDATA2) {
      if (i + 2 > script.length) throw truncated(script, i, 2);
      length = (script[i] as number) | ((script[i + 1] as number) << 8);
      i += 2;
    } else if (opcode === OP_PUSHDATA4) {
      if (i + 4 > script.length) throw truncated(script, i, 4);
      length = readUint32LE(script, i);
      i += 4;
    } else {
      chunks.push({opcode});
      continue;
    }
    if (i + length > script.length) throw truncated(script, i, length);
    chunks.push({opcode, data: script.subarray(i, i + length)});
    i += length;
  }
  return chunks;
}

/** `OP_HASH160 <20 bytes> OP_EQUAL`: the output script of a P2SH address. */
export function p2shOutputScript(scriptHash: Uint8Array): Uint8Array {
  if (scriptHash.length !== 20) throw new RangeError("a script hash is 20 bytes");
  return Uint8Array.of(OP_HASH160, 20, ...scriptHash, OP_EQUAL);
}

/** `OP_DUP OP_HASH160 <20 bytes> OP_EQUALVERIFY OP_CHECKSIG`: the output script of a P2PKH address. */
export function p2pkhOutputScript(pubKeyHash: Uint8Array): Uint8Array {
  if (pubKeyHash.length !== 20) throw new RangeError("a public-key hash is 20 bytes");
  return Uint8Array.of(OP_DUP, OP_HASH160, 20, ...pubKeyHash, OP_EQUALVERIFY, OP_CHECKSIG);
}
