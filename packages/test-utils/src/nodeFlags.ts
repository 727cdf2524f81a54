/** `xchain start` flags for a node in `dataDir` on free loopback ports (HTTP, WebSocket and p2p). */
export function freePortFlags(dataDir: string): string[] {
  return [
    "--datadir",
    dataDir,
    "--rpc.http.port",
    "0",
    "--rpc.ws.port",
    "0",
    "--p2p.host",
    "127.0.0.1",
    "--p2p.port",
    "0",
  ];
}
