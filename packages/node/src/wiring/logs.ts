/**
 * Wiring step 5, the logs a person reads (log/): a line per block or a sync summary, the head
 * stall warning, pending transactions at debug, merged-mining submissions and, on development
 * networks, a line per transaction (`log.transactions`), each subscribed to the events of the
 * component it tells of.
 */
import type {Chain} from "@xchain/chain";
import type {Chainspec} from "@xchain/chainspec";
import type {Miner} from "@xchain/miner";
import type {LoggingSwitch} from "@xchain/rpc";
import type {TxPool} from "@xchain/txpool";
import {subscribe} from "@xchain/utils";
import {BlockLog} from "../log/blockLog.ts";
import {HeadStallWatch, headStallMs} from "../log/headStall.ts";
import {submissionLog} from "../log/submissionLog.ts";
import {transactionLog} from "../log/transactionLog.ts";
import {logPendingTransactions} from "../log/txLog.ts";
import type {Logger} from "../logger.ts";
import {isTransactionLogOnByDefault, type NodeOptions} from "../options.ts";
import type {Closers} from "./closers.ts";

/** What the logs tell of. */
export interface LogSources {
  chainspec: Chainspec;
  chain: Chain;
  txpool: TxPool;
  miner: Miner;
  /** The best block the peers announce while a sync runs (the block log's summaries). */
  syncTarget(): number | undefined;
  logger: Logger;
}

/** What the logs give the rest of the node. */
export interface LogParts {
  /**
   * The transaction log's switch: `enabled` is read at every new head, so setting it at run time
   * (anvil_setLoggingEnabled, through `RpcDeps.logging`) starts or stops the lines at once.
   */
  transactions: LoggingSwitch;
}

/** Subscribes the logs; each is closed (unsubscribed, its timer stopped) with the node. */
export function startLogs(opts: NodeOptions, sources: LogSources, closers: Closers): LogParts {
  const {chainspec, chain, txpool, miner, syncTarget, logger} = sources;
  const chainLog = logger.child({module: "chain"});
  const transactions: LoggingSwitch = {
    enabled: opts.log.transactions ?? isTransactionLogOnByDefault(chainspec.params.name),
  };
  // Where transactions get lines of their own, a block without any is written at debug.
  const blockLog = new BlockLog({logger: chainLog, syncTarget, quietEmptyBlocks: transactions.enabled});
  const stopBlockLog = subscribe(chain.events, {newHead: blockLog.onNewHead});
  const stopTransactionLog = subscribe(chain.events, {newHead: transactionLog(transactions, chainLog, syncTarget)});
  closers.push({
    name: "block log",
    close: () => {
      stopTransactionLog();
      stopBlockLog();
      blockLog.close();
    },
  });
  const stallMs = headStallMs({
    headStallSeconds: opts.log.headStallSeconds,
    minerEnabled: opts.miner.enabled,
    blockTimeMs: opts.miner.blockTimeMs,
    network: chainspec.params.name,
    targetIntervalSeconds: chainspec.params.durationLimitSeconds,
  });
  if (stallMs !== undefined) {
    const watch = new HeadStallWatch({stallMs}, {chain, logger: chainLog});
    closers.push({name: "stall watch", close: () => watch.close()});
  }
  const stopTxLog = logPendingTransactions((l) => txpool.onPending(l), logger.child({module: "txpool"}));
  closers.push({name: "transaction log", close: stopTxLog});
  closers.push({
    name: "submission log",
    close: subscribe(miner.events, submissionLog(logger.child({module: "miner"}))),
  });
  return {transactions};
}
