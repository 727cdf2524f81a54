/** Inbound admission on real hosts: a stalled handshake holds its address's slot until the handshake timeout; outbound dials and bootnodes are not held back. */
import {connect as connectSocket, type Socket} from "node:net";
import {multiaddr} from "@multiformats/multiaddr";
import {afterEach, describe, expect, it} from "vitest";
import {connect, sleep, startHost, stopAll, type TestHost, waitFor} from "../support/hosts.ts";

const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await stopAll();
});

/** A TCP connection to `host` from 127.0.0.1 that never says a word; resolves once connected. */
async function stalled(host: TestHost): Promise<Socket> {
  const port = Number(multiaddr(host.network.listenAddresses()[0] as string).getComponents()[1]?.value);
  const socket = connectSocket({host: "127.0.0.1", port});
  socket.on("error", () => undefined);
  sockets.push(socket);
  await new Promise((resolve) => socket.once("connect", resolve));
  await sleep(50);
  return socket;
}

describe("inbound admission", () => {
  it("refuses a second pending handshake from one address until the first one is dropped at the handshake timeout", async () => {
    const a = await startHost({options: {maxPendingPerAddress: 1, handshakeTimeoutMs: 800}});
    const socket = await stalled(a);
    const c = await startHost();
    await expect(c.network.connect(a.network.listenAddresses()[0] as string)).rejects.toThrow();
    let closedAt = 0;
    socket.once("close", () => {
      closedAt = Date.now();
    });
    await waitFor(() => closedAt > 0, "the handshake timeout");
    await connect(c, a);
  });

  it("does not hold back outbound dials, nor a bootnode dialling in", async () => {
    const b = await startHost();
    const d = await startHost();
    // d as a bootnode at a port where it does not listen: a's own dials fail, d dials in.
    const a = await startHost({
      options: {maxPendingPerAddress: 1, bootnodes: [`/ip4/127.0.0.1/tcp/1/p2p/${d.network.peerId}`]},
    });
    await stalled(a);
    await connect(a, b);
    await connect(d, a);
    expect(a.network.peers().map((p) => p.id)).toEqual(expect.arrayContaining([b.network.peerId, d.network.peerId]));
  });
});
