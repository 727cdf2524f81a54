/**
 * The running requests of one client connection (an HTTP keep-alive socket or a WebSocket): when it
 * closes, their work is told to stop (docs/rpc.md §8). One close listener per connection instead of
 * one per request.
 */
import type {Socket} from "node:net";
import {RpcError} from "../jsonrpc/errors.ts";
import type {RequestControl} from "./requestControl.ts";

/** Requests running for one connection. */
export class ConnectionRequests {
  private readonly running = new Set<RequestControl>();
  private isClosed = false;

  /** Whether the connection has closed. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Adds a request; one arriving after the close is aborted at once. */
  add(control: RequestControl): void {
    if (this.isClosed) control.abort(RpcError.timeout());
    else this.running.add(control);
  }

  /** Forgets a request that has been answered. */
  delete(control: RequestControl): void {
    this.running.delete(control);
  }

  /** The connection closed: aborts every request on it with -32011 as the reason. */
  close(): void {
    this.isClosed = true;
    for (const control of this.running) control.abort(RpcError.timeout());
    this.running.clear();
  }
}

const bySocket = new WeakMap<Socket, ConnectionRequests>();

/** The requests of an HTTP socket, the same object for every request on it; closing the socket aborts them. */
export function requestsOfSocket(socket: Socket): ConnectionRequests {
  let requests = bySocket.get(socket);
  if (!requests) {
    const created = new ConnectionRequests();
    // A socket closed before its first request ran never emits "close" again.
    if (socket.destroyed) created.close();
    else socket.once("close", () => created.close());
    bySocket.set(socket, created);
    requests = created;
  }
  return requests;
}
