import type {P2POptions} from "./types.ts";

/** The defaults of a network whose p2p port is `port` (B§7.1: 5050, 50505, 50501). */
export function defaultP2POptions(port: number): P2POptions {
  return {
    enabled: true,
    host: "0.0.0.0",
    port,
    bootnodes: [],
    maxPeers: 30,
    mdns: false,
    requestTimeoutMs: 10_000,
  };
}
