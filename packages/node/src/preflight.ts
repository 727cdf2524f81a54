/**
 * Checks made before the database opens, so that a wrong setting stops start-up with one line
 * naming it (exit code 2) instead of failing halfway: listeners on distinct, free ports, bootnodes
 * that are multiaddrs with a peer id, and a data directory that can be created.
 */
import {createServer} from "node:net";
import {makeDirectory} from "@xchain/utils";
import {ConfigError, ConfigErrorCode} from "./config/errors.ts";
import type {NodeOptions} from "./options.ts";

interface Listener {
  key: string;
  host: string;
  port: number;
}

/** Throws `ConfigError` for the first setting the node could not start with. */
export async function preflight(options: NodeOptions): Promise<void> {
  const listeners = listenersOf(options);
  checkDistinctPorts(listeners);
  await checkBootnodes(options.p2p.bootnodes);
  for (const listener of listeners) await checkPortFree(listener);
  await checkDataDir(options.dataDir);
}

/** The enabled listeners with a fixed port (0 picks a free one, so it cannot clash). */
function listenersOf(options: NodeOptions): Listener[] {
  const all = [
    {enabled: options.rpc.http.enabled, key: "rpc.http.port", host: options.rpc.http.host, port: options.rpc.http.port},
    {enabled: options.rpc.ws.enabled, key: "rpc.ws.port", host: options.rpc.ws.host, port: options.rpc.ws.port},
    {enabled: options.p2p.enabled, key: "p2p.port", host: options.p2p.host, port: options.p2p.port},
  ];
  return all.filter((l) => l.enabled && l.port !== 0).map(({key, host, port}) => ({key, host, port}));
}

function checkDistinctPorts(listeners: readonly Listener[]): void {
  listeners.forEach((listener, i) => {
    const earlier = listeners.slice(0, i).find((l) => l.port === listener.port);
    if (earlier) {
      throw new ConfigError({
        code: ConfigErrorCode.SAME_PORT,
        key: listener.key,
        otherKey: earlier.key,
        port: listener.port,
      });
    }
  });
}

async function checkBootnodes(bootnodes: readonly string[]): Promise<void> {
  if (bootnodes.length === 0) return;
  // The p2p package (libp2p) loads for bootnodes only: a node without them may run without p2p.
  const {bootnodeProblem} = await import("@xchain/p2p");
  for (const value of bootnodes) {
    const reason = bootnodeProblem(value);
    if (reason !== undefined)
      throw new ConfigError({code: ConfigErrorCode.BAD_BOOTNODE, key: "p2p.bootnodes", value, reason});
  }
}

/** Binds the port and lets it go at once; another process listening there makes the bind fail. */
async function checkPortFree({key, host, port}: Listener): Promise<void> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({host, port, exclusive: true}, resolve);
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // Only a taken port is this check's to report; any other bind failure (a privileged port, a
    // host that is not an interface of the machine) is left to the listener itself, as before.
    if (err.code === "EADDRINUSE") throw new ConfigError({code: ConfigErrorCode.PORT_IN_USE, key, host, port});
    return;
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The data directory exists or can be created, is a directory, and this process can write in it. */
async function checkDataDir(path: string): Promise<void> {
  try {
    await makeDirectory(path);
  } catch (e) {
    throw new ConfigError({
      code: ConfigErrorCode.DATADIR_UNCREATABLE,
      key: "dataDir",
      path,
      reason: (e as Error).message,
    });
  }
}
