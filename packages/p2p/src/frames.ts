/**
 * Length-prefixed frames on a libp2p stream, bounded: a frame over `MAX_MESSAGE_BYTES` is refused
 * from its length prefix (and the read buffer cannot grow past one frame), and every read and
 * write runs under an AbortSignal (the request or read timeout). Failures come out as P2PErrors:
 * TIMEOUT when the signal fired, INVALID_MESSAGE for an oversized or malformed frame,
 * REQUEST_FAILED for anything else (reset, end of stream, closed connection).
 */
import type {Stream} from "@libp2p/interface";
import {type LengthPrefixedStream, lpStream} from "@libp2p/utils";
import {P2PError, P2PErrorCode} from "./errors.ts";
import {MAX_MESSAGE_BYTES} from "./types.ts";

/** A stream with xchain's framing. */
export interface FramedStream {
  readonly stream: Stream;
  readonly lp: LengthPrefixedStream<Stream>;
}

// Room for one whole frame and its length prefix; the muxer's flow control stops the sender there.
const MAX_BUFFER_BYTES = MAX_MESSAGE_BYTES + 16;

// Errors of @libp2p/utils' framing that mean the remote sent a frame it should not have.
const FRAME_ERRORS = new Set([
  "InvalidDataLengthError",
  "InvalidDataLengthLengthError",
  "InvalidMessageLengthError",
  "StreamBufferError",
]);

/** Where a frame failure happened, for the error's metadata. */
export interface FrameContext {
  peer: string;
  protocol: string;
  timeoutMs: number;
}

export function framed(stream: Stream): FramedStream {
  stream.maxReadBufferLength = Math.max(stream.maxReadBufferLength, MAX_BUFFER_BYTES);
  return {
    stream,
    lp: lpStream(stream, {maxDataLength: MAX_MESSAGE_BYTES, maxBufferSize: MAX_BUFFER_BYTES}),
  };
}

/** Reads one frame (copied into a plain Uint8Array that nothing else references). */
export async function readFrame(
  framedStream: FramedStream,
  signal: AbortSignal,
  context: FrameContext,
): Promise<Uint8Array> {
  try {
    const list = await framedStream.lp.read({signal});
    const out = new Uint8Array(list.byteLength);
    let offset = 0;
    for (const chunk of list) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  } catch (e) {
    throw streamError(e, signal, context);
  }
}

/** Writes one frame. */
export async function writeFrame(
  framedStream: FramedStream,
  bytes: Uint8Array,
  signal: AbortSignal,
  context: FrameContext,
): Promise<void> {
  try {
    await framedStream.lp.write(bytes, {signal});
  } catch (e) {
    throw streamError(e, signal, context);
  }
}

/** Closes our side for writing (the remote still reads what was sent). */
export async function closeWrite(
  framedStream: FramedStream,
  signal: AbortSignal,
  context: FrameContext,
): Promise<void> {
  try {
    await framedStream.stream.close({signal});
  } catch (e) {
    throw streamError(e, signal, context);
  }
}

/** Ends a stream at once (after a failure); never throws. */
export function abortStream(stream: Stream, error: unknown): void {
  try {
    stream.abort(error instanceof Error ? error : new Error(String(error)));
  } catch {
    // already closed
  }
}

/** The P2PError of a stream failure (a P2PError passes through). */
export function streamError(e: unknown, signal: AbortSignal | undefined, context: FrameContext): P2PError {
  if (e instanceof P2PError) return e;
  if (signal?.aborted) {
    return new P2PError({
      code: P2PErrorCode.TIMEOUT,
      peer: context.peer,
      protocol: context.protocol,
      timeoutMs: context.timeoutMs,
    });
  }
  const name = e instanceof Error ? e.name : "";
  const reason = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (FRAME_ERRORS.has(name)) return new P2PError({code: P2PErrorCode.INVALID_MESSAGE, peer: context.peer, reason});
  return new P2PError({code: P2PErrorCode.REQUEST_FAILED, peer: context.peer, protocol: context.protocol, reason});
}
