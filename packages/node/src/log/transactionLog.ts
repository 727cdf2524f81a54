/**
 * What a developer reads about their transactions (docs/operations.md §4): one info line per
 * transaction of each block that becomes the head, from the execution its import ran: hash,
 * sender, recipient or created contract, status, the revert reason when it reverted, and gas used.
 * The REMASC transaction every block ends with is left out, and so are the blocks a sync brings
 * (the block log counts them into its summaries). A switch (`LoggingSwitch`, flipped at run time by
 * anvil_setLoggingEnabled) turns the lines off without unsubscribing.
 */
import type {NewHeadEvent} from "@xchain/chain";
import type {TransactionOutcome} from "@xchain/execution";
import {isRemascTransaction} from "@xchain/primitives";
import {createdContractAddress, describeRevert, type LoggingSwitch} from "@xchain/rpc";
import {bytesToPrefixedHex, type Logger} from "@xchain/utils";
import {formatCount} from "./format.ts";

/** How a transaction ended. */
type Status = "success" | "reverted" | "failed";

/** The fields and message of one transaction's line. */
export function transactionLine(
  blockNumber: number,
  outcome: TransactionOutcome,
): {fields: Record<string, unknown>; message: string} {
  const {transaction: tx, gasUsed} = outcome;
  const hash = bytesToPrefixedHex(tx.hash());
  const from = bytesToPrefixedHex(tx.sender());
  const status: Status = outcome.status ? "success" : outcome.revertData !== undefined ? "reverted" : "failed";
  const reason = outcome.revertData === undefined ? undefined : describeRevert(outcome.revertData);
  // A failed creation deployed nothing, but its address is where the developer looks.
  const created =
    tx.to === undefined ? (outcome.contractAddress ?? createdContractAddress(tx.sender(), tx.nonce)) : undefined;
  const target =
    created !== undefined ? {created: bytesToPrefixedHex(created)} : {to: bytesToPrefixedHex(tx.to as Uint8Array)};
  const where = "created" in target ? `created ${target.created}` : `to ${target.to}`;
  const ending = status === "reverted" && reason !== undefined ? `reverted: ${reason}` : status;
  return {
    fields: {block: blockNumber, hash, from, ...target, status, reason, gasUsed: Number(gasUsed)},
    message: `transaction ${hash} from ${from} ${where}: ${ending}, ${formatCount(gasUsed)} gas`,
  };
}

/**
 * The `newHead` listener writing the lines while `logging.enabled` and no sync runs (`syncTarget`: the
 * best block the peers announce while one does).
 */
export function transactionLog(
  logging: LoggingSwitch,
  logger: Logger,
  syncTarget: () => number | undefined,
): (event: NewHeadEvent) => void {
  return ({head, headOutcomes}) => {
    if (!logging.enabled || headOutcomes === undefined || syncTarget() !== undefined) return;
    for (const outcome of headOutcomes) {
      if (isRemascTransaction(outcome.transaction)) continue;
      const {fields, message} = transactionLine(head.number, outcome);
      logger.info(fields, message);
    }
  };
}
