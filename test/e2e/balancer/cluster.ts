// One mining node and followers syncing from it over p2p, each restartable on the ports it got at
// its first start (so that HAProxy's server addresses and the followers' bootnode stay right), and
// HAProxy in front with docs/haproxy.cfg.
import {freeLoopbackPort} from "../support/freePort.ts";
import {type RunningHaproxy, startHaproxy} from "../support/haproxy.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

/** A node of the cluster under its name in docs/haproxy.cfg (`miner`, `follower1`, …). */
export class ClusterNode {
  private constructor(
    readonly name: string,
    private readonly args: string[],
    public running: RunningNode,
  ) {}

  static async start(name: string, args: string[]): Promise<ClusterNode> {
    return new ClusterNode(name, args, await startNode(args));
  }

  get httpAddress(): string {
    return new URL(this.running.httpUrl).host;
  }

  get wsAddress(): string {
    return new URL(this.running.wsUrl).host;
  }

  /** Stops the node with `signal` (SIGKILL: a crash). */
  async kill(signal: NodeJS.Signals): Promise<void> {
    await this.running.stop(signal);
  }

  /** Starts the node again on its data directory and ports, after `kill`. */
  async startAgain(): Promise<void> {
    const {dataDir, p2pAddresses, httpUrl, wsUrl} = this.running;
    const ports = [
      ["--rpc.http.port", new URL(httpUrl).port],
      ["--rpc.ws.port", new URL(wsUrl).port],
      ["--p2p.port", (p2pAddresses[0] as string).split("/")[4] as string],
    ].flat();
    this.running = await startNode([...this.args, ...ports], dataDir);
  }

  stop(): Promise<unknown> {
    return this.running.stop();
  }
}

/** The nodes and the balancer. */
export interface Cluster {
  miner: ClusterNode;
  followers: ClusterNode[];
  haproxy: RunningHaproxy;
  /** Where clients connect: `http://127.0.0.1:<port>` and `ws://127.0.0.1:<port>`. */
  httpUrl: string;
  wsUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts a miner that mines every `blockTimeMs` (and at once for a transaction), `followers`
 * nodes that dial it, and HAProxy in front of all of them, checking `/ready` every `checkInter`.
 */
export async function startCluster(
  haproxyBinary: string,
  {followers: count, blockTimeMs, checkInter}: {followers: number; blockTimeMs: number; checkInter: string},
): Promise<Cluster> {
  const started: ClusterNode[] = [];
  let haproxy: RunningHaproxy | undefined;
  const stop = async () => {
    await haproxy?.stop();
    await Promise.all(started.map((node) => node.stop()));
  };
  try {
    const miner = await ClusterNode.start("miner", ["--miner.blockTimeMs", String(blockTimeMs)]);
    started.push(miner);
    const bootnode = miner.running.p2pAddresses[0] as string;
    const followers = await Promise.all(
      Array.from({length: count}, (_, i) =>
        ClusterNode.start(`follower${i + 1}`, [
          ...["--miner.enabled", "false", "--miner.server.enabled", "false"],
          ...["--p2p.bootnodes", bootnode],
        ]),
      ),
    );
    started.push(...followers);
    const lb = `127.0.0.1:${await freeLoopbackPort()}`;
    const env: Record<string, string> = {
      XCHAIN_LB_BIND: lb,
      XCHAIN_LB_STATS: `127.0.0.1:${await freeLoopbackPort()}`,
      XCHAIN_CHECK_INTER: checkInter,
    };
    for (const node of started) {
      const prefix = `XCHAIN_${node.name.toUpperCase()}`;
      env[`${prefix}_HTTP`] = node.httpAddress;
      env[`${prefix}_WS`] = node.wsAddress;
    }
    haproxy = await startHaproxy(haproxyBinary, env);
    return {miner, followers, haproxy, httpUrl: `http://${lb}`, wsUrl: `ws://${lb}`, stop};
  } catch (error) {
    await stop();
    throw error;
  }
}
