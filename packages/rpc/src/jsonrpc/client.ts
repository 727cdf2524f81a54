/**
 * Who sent a request, for the per-client limits (docs/rpc.md §8): a client is a remote address,
 * except on loopback, where every local program shares the address and each connection counts as
 * its own client.
 */
import type {Socket} from "node:net";
import {isLoopback, parseIp} from "@xchain/utils";

/** The sender of a request. */
export interface RpcClient {
  /** The remote IP address as the socket reports it ("" when the socket no longer knows it). */
  readonly address: string;
  /** Unique per TCP connection (an HTTP keep-alive socket or a WebSocket). */
  readonly connectionId: number;
  /** What per-client limits count by: the address, or the connection on loopback. */
  readonly key: string;
}

const clients = new WeakMap<Socket, RpcClient>();
let nextConnectionId = 1;

/** `client` counted by its API key (the gateway is on): per-client limits then apply per key (docs/gateway.md). */
export function clientOfKey(client: RpcClient, keyId: string): RpcClient {
  return {address: client.address, connectionId: client.connectionId, key: `apikey:${keyId}`};
}

/** The client behind `socket`, the same object for every request on it. */
export function clientOf(socket: Socket): RpcClient {
  let client = clients.get(socket);
  if (!client) {
    const address = socket.remoteAddress ?? "";
    const connectionId = nextConnectionId++;
    const ip = parseIp(address);
    const key = ip === undefined || isLoopback(ip.bytes) ? `${address}#${connectionId}` : ip.text;
    client = {address, connectionId, key};
    clients.set(socket, client);
  }
  return client;
}
