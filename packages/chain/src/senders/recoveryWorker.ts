/**
 * The worker thread of `SenderRecovery` (senderRecovery.ts): recovers the public keys of a batch of
 * signing hashes and signatures with the native libsecp256k1 (`recoverPublicKey`) and answers them in
 * order. A signature no key matches answers status 0; the import recovers that transaction itself
 * and fails with the error it fails with today.
 */
import {parentPort} from "node:worker_threads";
import {recoverPublicKey} from "@xchain/utils";
import {ANSWER_BYTES, INPUT_BYTES, type RecoveryAnswer, type RecoveryRequest} from "./recoveryMessages.ts";

const port = parentPort;
if (!port) throw new Error("recoveryWorker.ts runs as a worker thread");

port.on("message", ({id, inputs}: RecoveryRequest) => {
  const count = inputs.length / INPUT_BYTES;
  const answers = new Uint8Array(count * ANSWER_BYTES);
  for (let i = 0; i < count; i++) {
    const at = i * INPUT_BYTES;
    try {
      const key = recoverPublicKey(
        inputs.subarray(at, at + 32),
        inputs.subarray(at + 32, at + 64),
        inputs.subarray(at + 64, at + 96),
        inputs[at + 96] as number,
      );
      answers[i * ANSWER_BYTES] = 1;
      answers.set(key, i * ANSWER_BYTES + 1);
    } catch {
      // status 0: no key matches this signature
    }
  }
  port.postMessage({id, answers} satisfies RecoveryAnswer, [answers.buffer]);
});
