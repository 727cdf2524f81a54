/**
 * Block and transaction gossip over gossipsub. Messages are unsigned (`StrictNoSign`) and their id
 * is the SHA-256 of topic and data, so gossipsub's seen cache drops a block or transaction it
 * already had, whoever sent it. A received message goes through the topic validator before
 * gossipsub forwards it: not decodable → reject (and INVALID_MESSAGE for the peer that sent it),
 * from a peer without a handshake or with no handler installed → ignore, otherwise the handler's
 * verdict. Only accepted messages are forwarded.
 */
import {type Message, TopicValidatorResult} from "@libp2p/gossipsub";
import type {PeerId as Libp2pPeerId} from "@libp2p/interface";
import type {Block, Transaction} from "@xchain/primitives";
import {concatBytes, equalBytes, sha256} from "@xchain/utils";
import type {NetworkContext} from "./context.ts";
import {P2PError, P2PErrorCode} from "./errors.ts";
import {type GossipMessage, type GossipVerdict, PeerEvent} from "./types.ts";
import {decodeGossipBlock, decodeGossipTransaction} from "./wire/gossip.ts";

export type GossipHandler<T> = (message: GossipMessage<T>) => Promise<GossipVerdict>;

const VERDICTS: Record<GossipVerdict, TopicValidatorResult> = {
  accept: TopicValidatorResult.Accept,
  ignore: TopicValidatorResult.Ignore,
  reject: TopicValidatorResult.Reject,
};

const encoder = new TextEncoder();

/** Gossipsub's message id: SHA-256 of the topic and the data. */
export function gossipMessageId(message: Message): Uint8Array {
  return sha256(concatBytes(encoder.encode(message.topic), message.data));
}

export class GossipRouter {
  private blockHandler?: GossipHandler<Block>;
  private transactionHandler?: GossipHandler<Transaction>;

  constructor(private readonly context: NetworkContext) {}

  /** Subscribes to both topics and installs their validators. */
  start(): void {
    const {pubsub} = this.context.host.services;
    const {ids, deps} = this.context;
    pubsub.topicValidators.set(ids.blocksTopic, (from, message) =>
      this.validate(
        from,
        message.data,
        (data) => decodeGossipBlock(data, deps.decodeOptions),
        this.blockHandler,
        (peer, block) => this.noteBlock(peer, block),
      ),
    );
    pubsub.topicValidators.set(ids.transactionsTopic, (from, message) =>
      this.validate(
        from,
        message.data,
        (data) => decodeGossipTransaction(data, deps.decodeOptions),
        this.transactionHandler,
      ),
    );
    pubsub.subscribe(ids.blocksTopic);
    pubsub.subscribe(ids.transactionsTopic);
  }

  onBlock(handler: GossipHandler<Block>): void {
    this.blockHandler = handler;
  }

  onTransaction(handler: GossipHandler<Transaction>): void {
    this.transactionHandler = handler;
  }

  async publishBlock(block: Block): Promise<void> {
    await this.publish(this.context.ids.blocksTopic, block.encode());
  }

  /** Resolves with the number of peers gossipsub sent it to (0: none known on the topic yet, or a repeat). */
  publishTransaction(tx: Transaction): Promise<number> {
    return this.publish(this.context.ids.transactionsTopic, tx.encode());
  }

  private async publish(topic: string, data: Uint8Array): Promise<number> {
    if (this.context.host.status !== "started") throw new P2PError({code: P2PErrorCode.NOT_RUNNING});
    const {recipients} = await this.context.host.services.pubsub.publish(topic, data);
    return recipients.length;
  }

  private async validate<T>(
    from: Libp2pPeerId,
    data: Uint8Array,
    decode: (data: Uint8Array) => T,
    handler: GossipHandler<T> | undefined,
    onDelivered?: (peer: string, value: T) => void,
  ): Promise<TopicValidatorResult> {
    const peer = from.toString();
    if (!this.context.peers.has(peer)) return TopicValidatorResult.Ignore;
    let value: T;
    try {
      value = decode(data);
    } catch (e) {
      this.context.log.debug({peer, err: String(e)}, "undecodable gossip");
      this.context.report(peer, PeerEvent.INVALID_MESSAGE);
      return TopicValidatorResult.Reject;
    }
    if (!handler) return TopicValidatorResult.Ignore;
    let verdict: GossipVerdict;
    try {
      verdict = await this.context.inbound.hold(() => handler({from: peer, value}));
    } catch (e) {
      this.context.log.warn({peer, err: String(e)}, "gossip handler failed");
      return TopicValidatorResult.Ignore;
    }
    if (verdict !== "reject") onDelivered?.(peer, value);
    return VERDICTS[verdict] ?? TopicValidatorResult.Ignore;
  }

  /** A block from a peer that extends the best block it announced is its new best block. */
  private noteBlock(peer: string, block: Block): void {
    const info = this.context.peers.get(peer);
    if (!info || !equalBytes(block.header.parentHash, info.status.bestHash)) return;
    let totalDifficulty = info.status.totalDifficulty + block.header.difficulty;
    for (const uncle of block.uncles) totalDifficulty += uncle.difficulty;
    this.context.peers.updateStatus(peer, {
      ...info.status,
      bestHash: block.hash(),
      bestNumber: block.header.number,
      totalDifficulty,
    });
  }
}
