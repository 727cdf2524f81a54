/**
 * A stored block's flat traces (docs/protocol/traces.md §2): the block re-executed on its parent's
 * state with a `CallTreeTracer`, each transaction's trees written as serialized parity-style
 * entries, kept with the transaction's sender and recipient for trace_filter.
 */
import type {Block} from "@xchain/primitives";
import type {ModuleDeps} from "../moduleDeps.ts";
import {replayInput} from "../resolve/blockReplay.ts";
import {CallTreeTracer} from "./callTree.ts";
import {parityTraces} from "./parityTrace.ts";

/** One transaction's traces. */
export interface TransactionTraces {
  /** The transaction's sender and recipient (undefined for a creation): what trace_filter selects on. */
  from: Uint8Array;
  to: Uint8Array | undefined;
  /** The UTF-8 JSON of each entry, in order. */
  traces: Buffer[];
}

/** What tracing reads. */
export type TraceDeps = Pick<ModuleDeps, "chain" | "executor" | "chainspec">;

/**
 * The traces of `block`'s transactions, or of the one at `only` (the replay stops after it); none
 * for the genesis block, which executes nothing.
 */
export async function traceBlockTransactions(
  {chain, executor, chainspec}: TraceDeps,
  block: Block,
  only?: number,
): Promise<TransactionTraces[]> {
  const input = await replayInput(chain, block, chainspec);
  if (!input) return [];
  const tracer = new CallTreeTracer();
  await executor.trace(input, tracer, only === undefined ? undefined : {only});
  const traced = {hash: block.hash(), number: block.header.number};
  return tracer.transactions.map((tree) => ({
    from: tree.tx.transaction.sender(),
    to: tree.tx.transaction.to,
    traces: parityTraces(tree, traced).map((trace) => Buffer.from(JSON.stringify(trace))),
  }));
}
