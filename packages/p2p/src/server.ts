/**
 * Serving `/headers/1` and `/bodies/1` from the chain to handshaken peers, and taking the
 * transactions a peer pushes on `/pooledtxs/1` (each through the pushed-transaction handler, the
 * relay's, as a gossiped one goes through the topic's): one request frame
 * (read within `requestTimeoutMs`), one response frame, then the stream closes. Requests over the
 * caps or malformed cost INVALID_MESSAGE; a peer that opens a stream and sends nothing in time
 * costs TIMEOUT_MESSAGE. A bodies response stops before it would exceed `MAX_MESSAGE_BYTES`. Each
 * peer has a request budget (`rateLimit.ts`); requests beyond it are refused.
 */
import type {Connection, Stream} from "@libp2p/interface";
import type {BlockHeader, Transaction} from "@xchain/primitives";
import {deadline, type NetworkContext} from "./context.ts";
import {P2PErrorCode} from "./errors.ts";
import {abortStream, closeWrite, type FrameContext, framed, readFrame, streamError, writeFrame} from "./frames.ts";
import {DEFAULT_REQUEST_RATE, type RateLimit, RequestRateLimiter} from "./rateLimit.ts";
import {type GossipMessage, type GossipVerdict, MAX_MESSAGE_BYTES, type P2PChainView, PeerEvent} from "./types.ts";
import {decodeBodiesRequest, encodeBodiesResponse} from "./wire/bodies.ts";
import {decodeHeadersRequest, encodeHeadersResponse, type HeadersRequest} from "./wire/headers.ts";
import {decodeTransactionsPush, encodePushAnswer} from "./wire/transactions.ts";

/** Judges one transaction a peer pushed (admitted: "accept"). */
export type PushedTransactionHandler = (message: GossipMessage<Transaction>) => Promise<GossipVerdict>;

// Requests a peer may have in flight per connection and protocol (and we towards it).
export const MAX_REQUEST_STREAMS = 8;
// Room for the response list's prefix and the frame's length prefix.
const FRAME_OVERHEAD = 16;

export class RequestServer {
  private readonly rates: RequestRateLimiter;
  private pushedTransactionHandler?: PushedTransactionHandler;

  constructor(
    private readonly context: NetworkContext,
    rate: RateLimit = DEFAULT_REQUEST_RATE,
  ) {
    this.rates = new RequestRateLimiter(rate);
  }

  /** Forgets a peer's request budget (it disconnected). */
  forget(peer: string): void {
    this.rates.forget(peer);
  }

  /** Installs the judge of pushed transactions; without one, a push is answered with 0 admitted. */
  onPushedTransaction(handler: PushedTransactionHandler): void {
    this.pushedTransactionHandler = handler;
  }

  async register(): Promise<void> {
    const options = {maxInboundStreams: MAX_REQUEST_STREAMS, maxOutboundStreams: MAX_REQUEST_STREAMS};
    const {ids} = this.context;
    await this.context.host.handle(
      ids.headers,
      (stream, connection) =>
        this.serve(stream, connection, ids.headers, async (bytes) =>
          encodeHeadersResponse(await headersFor(this.context.deps.chain, decodeHeadersRequest(bytes))),
        ),
      options,
    );
    await this.context.host.handle(
      ids.bodies,
      (stream, connection) =>
        this.serve(stream, connection, ids.bodies, async (bytes) =>
          encodeBodiesResponse(await bodiesFor(this.context.deps.chain, decodeBodiesRequest(bytes))),
        ),
      options,
    );
    await this.context.host.handle(
      ids.pooledTransactions,
      (stream, connection) =>
        this.serve(stream, connection, ids.pooledTransactions, (bytes, peer) => this.takePush(bytes, peer)),
      options,
    );
  }

  /** Judges each pushed transaction in turn; answers how many were admitted. */
  private async takePush(bytes: Uint8Array, peer: string): Promise<Uint8Array> {
    const transactions = decodeTransactionsPush(bytes, this.context.deps.decodeOptions);
    let admitted = 0;
    for (const value of transactions) {
      const verdict = (await this.pushedTransactionHandler?.({from: peer, value})) ?? "ignore";
      if (verdict === "accept") admitted++;
    }
    return encodePushAnswer(admitted);
  }

  private async serve(
    stream: Stream,
    connection: Connection,
    protocol: string,
    answer: (request: Uint8Array, peer: string) => Promise<Uint8Array>,
  ): Promise<void> {
    const peer = connection.remotePeer.toString();
    if (!this.context.peers.has(peer)) {
      abortStream(stream, new Error("no status handshake"));
      return;
    }
    // Over its budget: refused unread. Counted (REPEATED_MESSAGE), which alone costs no reputation.
    if (!this.rates.take(peer)) {
      abortStream(stream, new Error("request rate exceeded"));
      this.context.report(peer, PeerEvent.REPEATED_MESSAGE);
      return;
    }
    const context: FrameContext = {peer, protocol, timeoutMs: this.context.options.requestTimeoutMs};
    const signal = deadline(this.context, context.timeoutMs);
    const framedStream = framed(stream);
    try {
      const request = await readFrame(framedStream, signal, context);
      await this.context.inbound.hold(async () =>
        writeFrame(framedStream, await answer(request, peer), signal, context),
      );
      await closeWrite(framedStream, signal, context);
    } catch (e) {
      abortStream(stream, e);
      if (this.context.shutdown.aborted) return;
      const error = streamError(e, signal, context);
      this.context.log.debug({peer, protocol, err: error.message}, "request not served");
      if (error.code === P2PErrorCode.INVALID_MESSAGE) this.context.report(peer, PeerEvent.INVALID_MESSAGE);
      if (error.code === P2PErrorCode.TIMEOUT) this.context.report(peer, PeerEvent.TIMEOUT_MESSAGE);
    }
  }
}

/** The headers a request asks for that the chain has (canonical by number; any stored by hash). */
export async function headersFor(chain: P2PChainView, request: HeadersRequest): Promise<BlockHeader[]> {
  const headers: BlockHeader[] = [];
  if (request.kind === "byNumber") {
    const last = Math.min(chain.head().number, request.start + request.count - 1);
    for (let n = request.start; n <= last; n++) {
      const header = await chain.getHeaderByNumber(n);
      if (!header) break;
      headers.push(header);
    }
    return headers;
  }
  for (const hash of request.hashes) {
    const header = await chain.getHeader(hash);
    if (header) headers.push(header);
  }
  return headers;
}

/** The encoded bodies of the blocks asked, up to the first one the chain lacks or the size limit. */
export async function bodiesFor(chain: P2PChainView, hashes: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const bodies: Uint8Array[] = [];
  let size = FRAME_OVERHEAD;
  for (const hash of hashes) {
    const body = await chain.getBodyEncoding(hash);
    if (!body) break;
    size += body.length;
    if (size > MAX_MESSAGE_BYTES) break;
    bodies.push(body);
  }
  return bodies;
}
