/**
 * The settings that put a node on free loopback ports (HTTP, WebSocket and p2p), never on the
 * defaults (4444, 4445, 50501) that the user's own node may hold. Metrics stay off unless a test
 * turns them on (then with `metrics.port` 0).
 */
export const FREE_PORT_SETTINGS: readonly (readonly [key: string, value: string])[] = [
  ["rpc.http.port", "0"],
  ["rpc.ws.port", "0"],
  ["p2p.host", "127.0.0.1"],
  ["p2p.port", "0"],
];

/** `xchain start` flags for a node in `dataDir` on free loopback ports (`FREE_PORT_SETTINGS`). */
export function freePortFlags(dataDir: string): string[] {
  return ["--datadir", dataDir, ...FREE_PORT_SETTINGS.flatMap(([key, value]) => [`--${key}`, value])];
}
