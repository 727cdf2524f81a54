/**
 * Our requests to a peer: one stream per request, the request frame, then the response frame, all
 * within `requestTimeoutMs`. A response is checked against the request before anyone sees it:
 * undecodable or oversized → INVALID_MESSAGE, more or other than asked → UNEXPECTED_MESSAGE, no
 * answer in time → TIMEOUT_MESSAGE; the request then fails with BAD_RESPONSE or TIMEOUT.
 */
import type {Connection, Stream} from "@libp2p/interface";
import type {BlockHeader} from "@xchain/primitives";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {deadline, type NetworkContext} from "./context.ts";
import {P2PError, P2PErrorCode} from "./errors.ts";
import {abortStream, closeWrite, type FrameContext, framed, readFrame, streamError, writeFrame} from "./frames.ts";
import {type BlockBody, PeerEvent, type PeerId} from "./types.ts";
import {decodeBodiesResponse, encodeBodiesRequest} from "./wire/bodies.ts";
import {decodeHeadersResponse, encodeHeadersRequest} from "./wire/headers.ts";
import {decodePushAnswer, encodeTransactionsPush} from "./wire/transactions.ts";

export class Requester {
  constructor(private readonly context: NetworkContext) {}

  async getHeadersByNumber(peer: PeerId, start: number, count: number): Promise<BlockHeader[]> {
    const request = encodeHeadersRequest({kind: "byNumber", start, count});
    if (count === 0) return [];
    const protocol = this.context.ids.headers;
    const response = await this.exchange(peer, protocol, request);
    const headers = this.decode(peer, protocol, () =>
      decodeHeadersResponse(response, this.context.deps.decodeOptions.rules),
    );
    if (headers.length > count) this.unexpected(peer, protocol, `${headers.length} headers for ${count} asked`);
    headers.forEach((header, i) => {
      if (header.number !== start + i) this.unexpected(peer, protocol, `header ${header.number} at position ${i}`);
      const previous = headers[i - 1];
      if (previous && !equalBytes(header.parentHash, previous.hash())) {
        this.unexpected(peer, protocol, `header ${header.number} is not the child of the header before it`);
      }
    });
    return headers;
  }

  async getHeadersByHash(peer: PeerId, hashes: Uint8Array[]): Promise<BlockHeader[]> {
    const request = encodeHeadersRequest({kind: "byHash", hashes});
    if (hashes.length === 0) return [];
    const protocol = this.context.ids.headers;
    const response = await this.exchange(peer, protocol, request);
    const headers = this.decode(peer, protocol, () =>
      decodeHeadersResponse(response, this.context.deps.decodeOptions.rules),
    );
    // The headers must be a subsequence of the hashes asked, in their order.
    let next = 0;
    for (const header of headers) {
      const hash = header.hash();
      while (next < hashes.length && !equalBytes(hashes[next] as Uint8Array, hash)) next++;
      if (next === hashes.length)
        this.unexpected(peer, protocol, `header ${bytesToHex(hash)} was not asked (or not in order)`);
      next++;
    }
    return headers;
  }

  async getBodies(peer: PeerId, hashes: Uint8Array[]): Promise<BlockBody[]> {
    const request = encodeBodiesRequest(hashes);
    if (hashes.length === 0) return [];
    const protocol = this.context.ids.bodies;
    const response = await this.exchange(peer, protocol, request);
    const bodies = this.decode(peer, protocol, () => decodeBodiesResponse(response, this.context.deps.decodeOptions));
    if (bodies.length > hashes.length)
      this.unexpected(peer, protocol, `${bodies.length} bodies for ${hashes.length} asked`);
    return bodies;
  }

  /** Pushes encoded transactions (at most `MAX_PUSHED_TRANSACTIONS`); resolves with how many the peer admitted. */
  async pushTransactions(peer: PeerId, encoded: readonly Uint8Array[]): Promise<number> {
    const request = encodeTransactionsPush(encoded);
    if (encoded.length === 0) return 0;
    const protocol = this.context.ids.pooledTransactions;
    const response = await this.exchange(peer, protocol, request);
    const admitted = this.decode(peer, protocol, () => decodePushAnswer(response));
    if (admitted > encoded.length) this.unexpected(peer, protocol, `${admitted} admitted of ${encoded.length} pushed`);
    return admitted;
  }

  /** Opens a stream on the peer's connection, sends the request and reads the response. */
  private async exchange(peer: PeerId, protocol: string, request: Uint8Array): Promise<Uint8Array> {
    const connection = this.connectionOf(peer);
    const context: FrameContext = {peer, protocol, timeoutMs: this.context.options.requestTimeoutMs};
    const signal = deadline(this.context, context.timeoutMs);
    let stream: Stream | undefined;
    try {
      stream = await connection.newStream(protocol, {signal});
      const framedStream = framed(stream);
      await writeFrame(framedStream, request, signal, context);
      await closeWrite(framedStream, signal, context);
      const response = await readFrame(framedStream, signal, context);
      // The server closes its side after the response; anything else it might send is not read.
      if (stream.remoteWriteStatus !== "closed") abortStream(stream, new Error("response read"));
      return response;
    } catch (e) {
      if (stream) abortStream(stream, e);
      if (this.context.shutdown.aborted) throw new P2PError({code: P2PErrorCode.NOT_RUNNING});
      const error = streamError(e, signal, context);
      if (error.code === P2PErrorCode.TIMEOUT) this.context.report(peer, PeerEvent.TIMEOUT_MESSAGE);
      if (error.code === P2PErrorCode.INVALID_MESSAGE) {
        this.context.report(peer, PeerEvent.INVALID_MESSAGE);
        throw new P2PError({code: P2PErrorCode.BAD_RESPONSE, peer, protocol, reason: error.message});
      }
      throw error;
    }
  }

  private connectionOf(peer: PeerId): Connection {
    if (this.context.host.status !== "started") throw new P2PError({code: P2PErrorCode.NOT_RUNNING});
    const info = this.context.peers.get(peer);
    const connection =
      info && this.context.host.getConnections().find((c) => c.remotePeer.toString() === peer && c.status === "open");
    if (!connection) throw new P2PError({code: P2PErrorCode.UNKNOWN_PEER, peer});
    return connection;
  }

  /** Decodes a response; a malformed one costs INVALID_MESSAGE and fails the request. */
  private decode<T>(peer: PeerId, protocol: string, decode: () => T): T {
    try {
      return decode();
    } catch (e) {
      this.context.report(peer, PeerEvent.INVALID_MESSAGE);
      const reason = e instanceof Error ? e.message : String(e);
      throw new P2PError({code: P2PErrorCode.BAD_RESPONSE, peer, protocol, reason});
    }
  }

  private unexpected(peer: PeerId, protocol: string, reason: string): never {
    this.context.report(peer, PeerEvent.UNEXPECTED_MESSAGE);
    throw new P2PError({code: P2PErrorCode.BAD_RESPONSE, peer, protocol, reason});
  }
}
