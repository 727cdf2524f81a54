/**
 * Gossiped and pushed transactions in (a push is a peer's pending transactions sent straight to us,
 * docs/p2p.md "Pending transactions to new peers"; judged as gossip is): admitted by the txpool → accepted (forwarded by
 * gossip, VALID_TRANSACTION); already pooled → ignored; refused for a reason no node would accept
 * it for (undecodable, bad signature, wrong chain id, too large, REMASC, intrinsic gas) → rejected
 * (INVALID_TRANSACTION); refused for a reason of our pool or our view of the state (nonce, funds,
 * gas price band, pool limits, replacement price) → ignored: the sender may see another state.
 */
import {type GossipMessage, type GossipVerdict, PeerEvent, type PeerNetwork} from "@xchain/p2p";
import type {Transaction} from "@xchain/primitives";
import {TxPoolError, TxPoolErrorCode} from "@xchain/txpool";
import {bytesToHex, type Logger} from "@xchain/utils";
import {BoundedCounter, BoundedSet} from "./boundedSet.ts";
import {errorDetail} from "./errors.ts";
import type {SyncTxPool} from "./types.ts";

/** Refusals that make a transaction invalid everywhere. */
const INVALID_CODES = new Set<string>([
  TxPoolErrorCode.TOO_LARGE,
  TxPoolErrorCode.DECODE,
  TxPoolErrorCode.WRONG_CHAIN_ID,
  TxPoolErrorCode.INVALID_SIGNATURE,
  TxPoolErrorCode.REMASC_NOT_ACCEPTED,
  TxPoolErrorCode.INTRINSIC_GAS_TOO_LOW,
  TxPoolErrorCode.INITCODE_TOO_LARGE,
]);

/** Whether a txpool refusal means the transaction is invalid (not just unwelcome here and now). */
export function isInvalidTransaction(code: string): boolean {
  return INVALID_CODES.has(code);
}

/** What the transaction handler needs. */
export interface TxGossipDeps {
  network: PeerNetwork;
  txpool: SyncTxPool;
  logger?: Logger;
  repeatedMessageLimit: number;
  recentHashes: number;
}

/** The handler of the transaction topic, and the memory of which transactions came from the network. */
export class TxGossip {
  /** Transactions admitted from gossip: not published again when they become pending. */
  private readonly received: BoundedSet;
  /** Transactions refused as invalid: rejected again without admission. */
  private readonly invalid: BoundedSet;
  private readonly repeats: BoundedCounter;

  constructor(private readonly deps: TxGossipDeps) {
    this.received = new BoundedSet(deps.recentHashes);
    this.invalid = new BoundedSet(deps.recentHashes);
    this.repeats = new BoundedCounter(deps.recentHashes);
  }

  /** Whether the transaction came to us by gossip. */
  fromNetwork(hash: Uint8Array): boolean {
    return this.received.has(bytesToHex(hash));
  }

  /** Validates a gossiped transaction (see the file comment); gossip forwards it when accepted. */
  handle(message: GossipMessage<Transaction>): Promise<GossipVerdict> {
    return this.admit(message, true);
  }

  /**
   * Validates a pushed transaction as a gossiped one. It is not remembered as from the network: no
   * gossip forwarded it, so the relay publishes it when it becomes pending, for our other peers.
   */
  handlePushed(message: GossipMessage<Transaction>): Promise<GossipVerdict> {
    return this.admit(message, false);
  }

  private async admit(message: GossipMessage<Transaction>, gossiped: boolean): Promise<GossipVerdict> {
    const {network, txpool} = this.deps;
    const {from, value: tx} = message;
    const hash = tx.hash();
    const key = bytesToHex(hash);
    if (this.repeats.increment(`${from}/${key}`) > this.deps.repeatedMessageLimit) {
      network.report(from, PeerEvent.REPEATED_MESSAGE);
    }
    if (this.invalid.has(key)) {
      network.report(from, PeerEvent.INVALID_TRANSACTION);
      return "reject";
    }
    if (txpool.get(hash)) return "ignore";
    // Marked before admission: the pool announces it as pending before `add` resolves.
    const known = this.received.has(key);
    if (gossiped) this.received.add(key);
    try {
      await txpool.add(tx);
      network.report(from, PeerEvent.VALID_TRANSACTION);
      return "accept";
    } catch (e) {
      if (gossiped && !known) this.received.delete(key);
      if (!(e instanceof TxPoolError)) {
        this.deps.logger?.warn({peer: from, detail: errorDetail(e)}, "txpool failed on a gossiped transaction");
        return "ignore";
      }
      if (!isInvalidTransaction(e.code)) return "ignore";
      this.invalid.add(key);
      this.deps.logger?.debug({peer: from, code: e.code}, "gossiped transaction is invalid");
      network.report(from, PeerEvent.INVALID_TRANSACTION);
      return "reject";
    }
  }
}
