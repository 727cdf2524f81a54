/**
 * Pending transactions in block order: the best gas price first across senders, each sender's in
 * nonce order. A binary heap holds each sender's next transaction, so n transactions from s
 * senders take O(n log s).
 */
import type {Transaction} from "@xchain/primitives";
import type {PoolTransaction} from "./poolTransaction.ts";
import type {SenderTransactions} from "./senderTransactions.ts";

/** A sender's pending run and the position of its next transaction in it. */
interface Cursor {
  run: PoolTransaction[];
  index: number;
}

/** Whether `a`'s next transaction goes before `b`'s: higher gas price, then earlier arrival. */
function before(a: Cursor, b: Cursor): boolean {
  const x = a.run[a.index] as PoolTransaction;
  const y = b.run[b.index] as PoolTransaction;
  return x.gasPrice !== y.gasPrice ? x.gasPrice > y.gasPrice : x.sequence < y.sequence;
}

function siftDown(heap: Cursor[], start: number): void {
  const item = heap[start] as Cursor;
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) break;
    const right = left + 1;
    const child = right < heap.length && before(heap[right] as Cursor, heap[left] as Cursor) ? right : left;
    if (!before(heap[child] as Cursor, item)) break;
    heap[i] = heap[child] as Cursor;
    i = child;
  }
  heap[i] = item;
}

/** Every pending transaction of `senders`, ordered for a block. */
export function bestTransactions(senders: Iterable<SenderTransactions>): Transaction[] {
  const heap: Cursor[] = [];
  let total = 0;
  for (const sender of senders) {
    const run = sender.pending();
    if (run.length > 0) heap.push({run, index: 0});
    total += run.length;
  }
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) siftDown(heap, i);
  const out = new Array<Transaction>(total);
  for (let k = 0; k < total; k++) {
    const top = heap[0] as Cursor;
    out[k] = (top.run[top.index] as PoolTransaction).tx;
    top.index++;
    if (top.index === top.run.length) {
      const last = heap.pop() as Cursor;
      if (heap.length === 0) break;
      if (last !== top) heap[0] = last;
    }
    siftDown(heap, 0);
  }
  return out;
}
