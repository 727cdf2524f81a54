/**
 * `/xchain/<networkId>/status/1`: one status message each way per stream. The side that opens the
 * stream sends its status and reads the other's. Both sides open one when a connection opens (the
 * handshake) and again to announce a new best block. The first valid status makes a peer
 * handshaken; a status of another network, genesis or protocol version ends the connection.
 */
import type {Connection, Stream} from "@libp2p/interface";
import {bytesToHex, equalBytes} from "@xchain/utils";
import {deadline, type NetworkContext} from "./context.ts";
import {P2PError, P2PErrorCode} from "./errors.ts";
import {abortStream, closeWrite, type FrameContext, framed, readFrame, streamError, writeFrame} from "./frames.ts";
import {PeerEvent, type PeerStatus, PROTOCOL_VERSION} from "./types.ts";
import {decodeStatus, encodeStatus} from "./wire/status.ts";

/** Why a status is not acceptable: the event it costs and a reason for the log. */
export interface StatusMismatch {
  event: PeerEvent.INVALID_NETWORK | PeerEvent.FAILED_HANDSHAKE;
  reason: string;
}

/** Compares a peer's status with ours: same protocol version, network id and genesis block. */
export function checkStatus(ours: PeerStatus, theirs: PeerStatus): StatusMismatch | undefined {
  if (theirs.protocolVersion !== ours.protocolVersion) {
    return {event: PeerEvent.FAILED_HANDSHAKE, reason: `protocol version ${theirs.protocolVersion}`};
  }
  if (theirs.networkId !== ours.networkId) {
    return {event: PeerEvent.INVALID_NETWORK, reason: `network id ${theirs.networkId}`};
  }
  if (!equalBytes(theirs.genesisHash, ours.genesisHash)) {
    return {event: PeerEvent.INVALID_NETWORK, reason: `genesis 0x${bytesToHex(theirs.genesisHash)}`};
  }
  return undefined;
}

// The status protocol is not among the peer's (libp2p's UnsupportedProtocolError, kept in the message).
const UNSUPPORTED_PROTOCOL = /UnsupportedProtocolError/;

// At most this many status streams at once per connection and direction.
const MAX_STATUS_STREAMS = 2;

export class StatusProtocol {
  /** Peers whose handshake we started and that have not answered yet. */
  private readonly handshaking = new Set<string>();

  constructor(private readonly context: NetworkContext) {}

  /** Our status from the chain's head. */
  localStatus(): PeerStatus {
    const head = this.context.deps.chain.head();
    return {
      protocolVersion: PROTOCOL_VERSION,
      networkId: this.context.deps.networkId,
      genesisHash: this.context.deps.chain.genesisHash,
      bestHash: head.hash,
      bestNumber: head.number,
      totalDifficulty: head.totalDifficulty,
    };
  }

  async register(): Promise<void> {
    await this.context.host.handle(this.context.ids.status, (stream, connection) => this.serve(stream, connection), {
      maxInboundStreams: MAX_STATUS_STREAMS,
      maxOutboundStreams: MAX_STATUS_STREAMS,
    });
  }

  /** Runs the handshake on a new connection (once per peer at a time); failures close the connection. */
  async handshake(connection: Connection): Promise<void> {
    const peer = connection.remotePeer.toString();
    if (this.context.peers.has(peer) || this.handshaking.has(peer)) return;
    this.handshaking.add(peer);
    try {
      await this.exchange(connection, this.localStatus());
    } catch (e) {
      if (this.context.shutdown.aborted || this.context.peers.has(peer)) return;
      this.context.log.debug({peer, err: String(e)}, "status handshake failed");
      // Already scored and hung up (another network, banned), or the connection is gone.
      if (e instanceof P2PError && e.code === P2PErrorCode.HANDSHAKE_FAILED) return;
      const unsupported = e instanceof P2PError && UNSUPPORTED_PROTOCOL.test(e.message);
      const reason = unsupported
        ? `it does not speak ${this.context.ids.status} (a node of another network, or not an xchain node)`
        : String(e instanceof Error ? e.message : e);
      this.context.handshakeFailed(peer, reason, unsupported);
      this.context.report(peer, PeerEvent.FAILED_HANDSHAKE);
      this.context.hangUp(peer, "handshake failed");
    } finally {
      this.handshaking.delete(peer);
    }
  }

  /** Sends `status` to a handshaken peer and records the status it answers with; never throws. */
  async announce(connection: Connection, status: PeerStatus): Promise<void> {
    const peer = connection.remotePeer.toString();
    try {
      await this.exchange(connection, status);
    } catch (e) {
      if (this.context.shutdown.aborted || !(e instanceof P2PError)) return;
      this.context.log.debug({peer, err: e.message}, "status announcement failed");
      if (e.code === P2PErrorCode.INVALID_MESSAGE || e.code === P2PErrorCode.TIMEOUT) {
        this.context.report(peer, invalidOrTimeout(e));
      }
    }
  }

  private async exchange(connection: Connection, status: PeerStatus): Promise<void> {
    const peer = connection.remotePeer.toString();
    const context = this.frameContext(peer);
    const signal = deadline(this.context, context.timeoutMs);
    let stream: Stream | undefined;
    try {
      stream = await connection.newStream(this.context.ids.status, {signal});
      const framedStream = framed(stream);
      await writeFrame(framedStream, encodeStatus(status), signal, context);
      await closeWrite(framedStream, signal, context);
      const theirs = decodeStatus(await readFrame(framedStream, signal, context));
      this.accept(connection, theirs);
    } catch (e) {
      if (stream) abortStream(stream, e);
      throw streamError(e, signal, context);
    }
  }

  private async serve(stream: Stream, connection: Connection): Promise<void> {
    const peer = connection.remotePeer.toString();
    const context = this.frameContext(peer);
    const signal = deadline(this.context, context.timeoutMs);
    const framedStream = framed(stream);
    try {
      const theirs = decodeStatus(await readFrame(framedStream, signal, context));
      const mismatch = checkStatus(this.localStatus(), theirs);
      if (mismatch) {
        // Our status first, so that the peer sees the mismatch too, then the connection ends.
        await writeFrame(framedStream, encodeStatus(this.localStatus()), signal, context).catch(() => undefined);
        await closeWrite(framedStream, signal, context).catch(() => undefined);
        // Hanging up at once could reset the stream before the peer reads ours (it would see a broken
        // handshake, not another network): wait until it hangs up itself, or the deadline.
        await readFrame(framedStream, signal, context).catch(() => undefined);
      }
      this.accept(connection, theirs);
      await writeFrame(framedStream, encodeStatus(this.localStatus()), signal, context);
      await closeWrite(framedStream, signal, context);
    } catch (e) {
      const error = streamError(e, signal, context);
      // A refused status was answered with ours (the connection is closing): nothing to reset.
      if (error.code === P2PErrorCode.HANDSHAKE_FAILED) return;
      abortStream(stream, e);
      if (this.context.shutdown.aborted) return;
      this.context.log.debug({peer, err: error.message}, "status message failed");
      if (error.code === P2PErrorCode.INVALID_MESSAGE || error.code === P2PErrorCode.TIMEOUT) {
        const handshaken = this.context.peers.has(peer);
        this.context.report(peer, handshaken ? invalidOrTimeout(error) : PeerEvent.FAILED_HANDSHAKE);
        if (!handshaken) this.context.hangUp(peer, "handshake failed");
      }
    }
  }

  /** Applies a peer's status: the handshake, or an update of a handshaken peer. */
  private accept(connection: Connection, theirs: PeerStatus): void {
    const peer = connection.remotePeer.toString();
    const mismatch = checkStatus(this.localStatus(), theirs);
    if (mismatch) {
      this.context.log.debug({peer, reason: mismatch.reason}, "peer of another network");
      this.context.handshakeFailed(peer, mismatchReason(mismatch), true);
      this.context.report(peer, mismatch.event);
      this.context.hangUp(peer, mismatch.reason);
      throw new P2PError({code: P2PErrorCode.HANDSHAKE_FAILED, peer, reason: mismatch.reason});
    }
    if (this.context.peers.has(peer)) {
      this.context.peers.updateStatus(peer, theirs);
      return;
    }
    if (connection.status !== "open") {
      throw new P2PError({code: P2PErrorCode.HANDSHAKE_FAILED, peer, reason: "connection closed"});
    }
    // Scoring may ban the peer on this event (its address was banned meanwhile): it was hung up then.
    if (this.context.report(peer, PeerEvent.SUCCESSFUL_HANDSHAKE)) {
      throw new P2PError({code: P2PErrorCode.HANDSHAKE_FAILED, peer, reason: "banned"});
    }
    this.context.peers.add({
      id: peer,
      remoteAddress: connection.remoteAddr.toString(),
      status: theirs,
      inbound: connection.direction === "inbound",
    });
  }

  private frameContext(peer: string): FrameContext {
    return {peer, protocol: this.context.ids.status, timeoutMs: this.context.options.requestTimeoutMs};
  }
}

/** A refused status in words: what differs from ours. */
function mismatchReason(mismatch: StatusMismatch): string {
  return `its ${mismatch.reason} differs from ours`;
}

function invalidOrTimeout(error: P2PError): PeerEvent {
  return error.code === P2PErrorCode.TIMEOUT ? PeerEvent.TIMEOUT_MESSAGE : PeerEvent.INVALID_MESSAGE;
}
