/** Client identity: one client per remote address, one per connection on loopback. */
import type {Socket} from "node:net";
import {describe, expect, it} from "vitest";
import {clientOf} from "../../src/jsonrpc/client.ts";

const socket = (remoteAddress: string | undefined) => ({remoteAddress}) as Socket;

describe("clientOf", () => {
  it("gives the same client for every request on one socket", () => {
    const s = socket("10.1.2.3");
    expect(clientOf(s)).toBe(clientOf(s));
  });
  it("counts remote connections from one address as one client", () => {
    const a = clientOf(socket("10.1.2.3"));
    const b = clientOf(socket("10.1.2.3"));
    expect(a.connectionId).not.toBe(b.connectionId);
    expect(a.key).toBe("10.1.2.3");
    expect(b.key).toBe(a.key);
    // The IPv4-mapped spelling a dual-stack socket reports is the same client.
    expect(clientOf(socket("::ffff:10.1.2.3")).key).toBe("10.1.2.3");
  });
  it("counts each loopback connection as its own client", () => {
    const a = clientOf(socket("127.0.0.1"));
    const b = clientOf(socket("127.0.0.1"));
    expect(a.key).not.toBe(b.key);
    expect(clientOf(socket("::1")).key).not.toBe(clientOf(socket("::1")).key);
  });
  it("counts a socket without an address per connection", () => {
    expect(clientOf(socket(undefined)).key).not.toBe(clientOf(socket(undefined)).key);
  });
});
