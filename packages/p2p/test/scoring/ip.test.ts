/** The IP of a remote peer's multiaddr. */
import {describe, expect, it} from "vitest";
import {ipOfRemoteAddress} from "../../src/scoring/index.ts";

describe("ipOfRemoteAddress", () => {
  it("takes the IP of literals and of /ip4, /ip6 multiaddrs", () => {
    expect(ipOfRemoteAddress("10.0.0.1")?.text).toBe("10.0.0.1");
    expect(ipOfRemoteAddress("/ip4/10.0.0.1/tcp/5050")?.text).toBe("10.0.0.1");
    expect(ipOfRemoteAddress("/ip4/10.0.0.1/tcp/5050/p2p/16Uiu2HAm")?.text).toBe("10.0.0.1");
    expect(ipOfRemoteAddress("/ip6/::1/tcp/5050")?.text).toBe("::1");
    expect(ipOfRemoteAddress("/ip6/::ffff:10.0.0.1/tcp/5050")?.text).toBe("10.0.0.1");
  });

  it("has no IP for other addresses", () => {
    expect(ipOfRemoteAddress("/dns4/example.com/tcp/5050")).toBeUndefined();
    expect(ipOfRemoteAddress("/ip4/::1/tcp/5050")).toBeUndefined();
    expect(ipOfRemoteAddress("/ip6/10.0.0.1/tcp/5050")).toBeUndefined();
    expect(ipOfRemoteAddress("/ip4/300.0.0.1/tcp/5050")).toBeUndefined();
    expect(ipOfRemoteAddress("16Uiu2HAmPeer")).toBeUndefined();
  });
});
