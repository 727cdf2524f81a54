/**
 * Sender recovery on another core, for blocks known before they are imported (`db import`, sync's
 * downloaded blocks): `recover(transactions)` sends their signing hashes and signatures to a worker
 * thread, which recovers the public keys with the native libsecp256k1, and hands each key to its
 * transaction (`Transaction.adoptSignerPublicKey`, which takes it only for that transaction's own
 * signing hash and signature), so that the import's `sender()` recovers nothing. A signature the
 * worker finds no key for is left to the import, which fails the block with today's error.
 * A worker that stops fails the batches it held with CHAIN_SENDER_RECOVERY_FAILED; the next batch
 * starts a new one.
 */
import {Worker} from "node:worker_threads";
import type {SignerRecoveryInput, Transaction} from "@xchain/primitives";
import {ChainError, ChainErrorCode} from "../errors.ts";
import {answerAt, packInputs, type RecoveryAnswer, type RecoveryRequest} from "./recoveryMessages.ts";

/**
 * The compiled worker script: the same relative path from src/senders (tests run the sources) and
 * from dist/senders. Node 20 runs no TypeScript, so the worker always runs the build.
 */
const WORKER_SCRIPT = new URL("../../dist/senders/recoveryWorker.js", import.meta.url);

/** What `SenderRecovery` is built with. */
export interface SenderRecoveryModules {
  /** The worker's script; default the chain package's recoveryWorker.js. */
  workerScript?: URL;
}

interface PendingBatch {
  transactions: Transaction[];
  inputs: SignerRecoveryInput[];
  resolve(): void;
  reject(error: Error): void;
}

/** One worker thread recovering the senders of batches of transactions, in the order they are sent. */
export class SenderRecovery {
  private readonly workerScript: URL;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, PendingBatch>();
  private nextId = 0;
  private closed = false;

  constructor(modules: SenderRecoveryModules = {}) {
    this.workerScript = modules.workerScript ?? WORKER_SCRIPT;
  }

  /**
   * Recovers the signers of `transactions` in the worker and hands each its public key; resolves
   * when they have them (at once when none needs recovery). Rejects with CHAIN_SENDER_RECOVERY_FAILED
   * when the worker stops first, or after `close`.
   */
  recover(transactions: readonly Transaction[]): Promise<void> {
    if (this.closed) return Promise.reject(failure("sender recovery is closed"));
    const batch: Transaction[] = [];
    const inputs: SignerRecoveryInput[] = [];
    for (const tx of transactions) {
      const input = tx.signerRecoveryInput();
      if (!input) continue;
      batch.push(tx);
      inputs.push(input);
    }
    if (inputs.length === 0) return Promise.resolve();
    const worker = this.started();
    const id = this.nextId++;
    const request: RecoveryRequest = {id, inputs: packInputs(inputs)};
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, {transactions: batch, inputs, resolve, reject});
      worker.ref();
      worker.postMessage(request, [request.inputs.buffer as ArrayBuffer]);
    });
  }

  /** Ends the worker; batches still pending reject. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failPending("sender recovery closed");
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerScript);
    worker.on("message", (answer: RecoveryAnswer) => this.answered(answer));
    worker.on("error", (e) => this.stopped(worker, `the sender recovery worker failed: ${e.message}`));
    worker.on("exit", (code) => this.stopped(worker, `the sender recovery worker exited (code ${code})`));
    // An idle worker does not keep the process alive (`recover` refs it while a batch is pending).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answered({id, answers}: RecoveryAnswer): void {
    const batch = this.pending.get(id);
    if (!batch) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    batch.transactions.forEach((tx, i) => {
      const publicKey = answerAt(answers, i);
      if (publicKey) tx.adoptSignerPublicKey(batch.inputs[i] as SignerRecoveryInput, publicKey);
    });
    batch.resolve();
  }

  private stopped(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failPending(reason);
  }

  private failPending(reason: string): void {
    const batches = [...this.pending.values()];
    this.pending.clear();
    for (const batch of batches) batch.reject(failure(reason));
  }
}

function failure(reason: string): ChainError {
  return new ChainError({code: ChainErrorCode.SENDER_RECOVERY_FAILED, reason}, reason);
}
