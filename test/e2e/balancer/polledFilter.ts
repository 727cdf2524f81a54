// A dapp's eth_newFilter + eth_getFilterChanges loop through a load balancer, as a careful dapp
// writes it: when the node that held the filter is gone, the next poll is answered -32000 "filter
// not found" (by the node the client is moved to); the dapp then installs the filter again from
// the block after the last one it has seen, and reads what it missed with eth_getFilterLogs.
//
// What the test asserts from it (balancer.test.ts): every log a filter id returns is one its query
// selects (never another filter's), no filter id returns a log twice, and the logs the dapp ends
// up with are exactly what eth_getLogs selects over the same blocks (nothing skipped in silence).

/** A JSON-RPC log as the node returns it. */
export interface RpcLog {
  address: string;
  topics: string[];
  blockNumber: string;
  blockHash: string;
  logIndex: string;
  transactionHash: string;
}

/** A raw JSON-RPC call through the dapp's library (ethers' `send`, viem's `request`). */
export type Send = (method: string, params: unknown[]) => Promise<unknown>;

/** The key of a log on the chain. */
export const logKey = (log: RpcLog) => `${log.blockHash}/${log.logIndex}`;

const hex = (n: number) => `0x${n.toString(16)}`;

export class PolledFilter {
  /** The logs the dapp has, each once, in the order it got them. */
  readonly logs: RpcLog[] = [];
  /** Per filter id, the logs its eth_getFilterChanges answers returned (duplicates kept). */
  readonly changesById = new Map<string, RpcLog[]>();
  /** Filter ids the node did not know any more, in order. */
  readonly lost: string[] = [];
  private readonly seen = new Set<string>();
  private id = "";

  constructor(
    private readonly send: Send,
    readonly address: string,
    readonly topic: string,
    /** The first block the dapp wants logs of. */
    private fromBlock: number,
  ) {}

  /** Installs the filter (again) from `fromBlock` and reads the logs it already selects. */
  async install(): Promise<void> {
    const query = {address: this.address, topics: [this.topic], fromBlock: hex(this.fromBlock)};
    this.id = (await this.send("eth_newFilter", [query])) as string;
    this.changesById.set(this.id, []);
    this.take((await this.send("eth_getFilterLogs", [this.id])) as RpcLog[]);
  }

  /** One eth_getFilterChanges; a filter the node does not know is installed again. */
  async poll(): Promise<void> {
    let changes: RpcLog[];
    try {
      changes = (await this.send("eth_getFilterChanges", [this.id])) as RpcLog[];
    } catch (error) {
      if (!/filter not found/.test(String((error as Error).message))) throw error;
      this.lost.push(this.id);
      await this.install();
      return;
    }
    this.changesById.get(this.id)?.push(...changes);
    this.take(changes);
  }

  private take(logs: RpcLog[]): void {
    for (const log of logs) {
      const key = logKey(log);
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.logs.push(log);
      this.fromBlock = Math.max(this.fromBlock, Number(log.blockNumber) + 1);
    }
  }
}
