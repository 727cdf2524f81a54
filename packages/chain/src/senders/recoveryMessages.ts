/**
 * The messages between `SenderRecovery` and its worker thread (recoveryWorker.ts), packed into one
 * transferred buffer a batch: per transaction its signing hash, r, s (32 bytes each) and recovery id
 * (1 byte) one way; a status byte and the 64-byte public key (zeros when no key matches) the other.
 */
import type {SignerRecoveryInput} from "@xchain/primitives";
import {bigIntToFixedBytes} from "@xchain/utils";

/** Bytes of one transaction's input: signing hash, r, s, recovery id. */
export const INPUT_BYTES = 97;
/** Bytes of one answer: status (1: recovered, 0: no key matches) and the public key. */
export const ANSWER_BYTES = 65;

/** A batch to recover, `id` naming it in the answer. */
export interface RecoveryRequest {
  id: number;
  inputs: Uint8Array;
}

/** The answer to the batch `id`: `count` answers of `ANSWER_BYTES`, in the request's order. */
export interface RecoveryAnswer {
  id: number;
  answers: Uint8Array;
}

export function packInputs(inputs: readonly SignerRecoveryInput[]): Uint8Array {
  const packed = new Uint8Array(inputs.length * INPUT_BYTES);
  inputs.forEach((input, i) => {
    const at = i * INPUT_BYTES;
    packed.set(input.signingHash, at);
    packed.set(bigIntToFixedBytes(input.r, 32), at + 32);
    packed.set(bigIntToFixedBytes(input.s, 32), at + 64);
    packed[at + 96] = input.recovery;
  });
  return packed;
}

/** The public key of answer `i`, or undefined when the worker found none for its input. */
export function answerAt(answers: Uint8Array, i: number): Uint8Array | undefined {
  const at = i * ANSWER_BYTES;
  return answers[at] === 1 ? answers.slice(at + 1, at + ANSWER_BYTES) : undefined;
}
