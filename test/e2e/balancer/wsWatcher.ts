// A dapp's WebSocket subscriptions through the balancer, with viem 2: new heads (eth_subscribe
// "newHeads") and a contract's events (eth_subscribe "logs"). When the node holding the socket goes
// away, viem reconnects (through the balancer, to a node that is up) and subscribes again; what
// was emitted while the socket was down is not replayed (a dapp reads it with eth_getLogs).
import {type Address, createPublicClient, webSocket} from "viem";
import {COUNTER_ABI} from "../support/counterContract.ts";

/** A log as the subscription delivered it. */
export interface DeliveredLog {
  address: string;
  blockHash: string;
  logIndex: number;
  transactionHash: string;
  /** Errors the watchers had met when it came: the connection it came on, counted by its breaks. */
  breaksBefore: number;
}

export class WsWatcher {
  readonly heads: {number: bigint; hash: string}[] = [];
  readonly logs: DeliveredLog[] = [];
  /** Errors viem reported to the watchers (the socket closing under a restart). */
  readonly errors: string[] = [];
  private readonly stops: (() => void)[] = [];
  private closeSocket: () => Promise<void> = async () => {};

  constructor(
    private readonly url: string,
    private readonly contract: string,
  ) {}

  start(): void {
    const client = createPublicClient({
      transport: webSocket(this.url, {reconnect: {attempts: 50, delay: 300}, keepAlive: {interval: 1_000}}),
    });
    // Unwatching leaves viem's socket open (and reconnecting); stop() closes it.
    const transport = client.transport as unknown as {getRpcClient(): Promise<{close(): void}>};
    this.closeSocket = async () => (await transport.getRpcClient()).close();
    const onError = (error: Error) => void this.errors.push(error.message.split("\n", 1)[0] as string);
    this.stops.push(
      client.watchBlocks({
        // viem hands over what the subscription sent: a notification without a block is an error.
        onBlock: (block) =>
          block
            ? this.heads.push({number: block.number, hash: block.hash})
            : this.errors.push("a head without a block"),
        onError,
      }),
      client.watchContractEvent({
        address: this.contract as Address,
        abi: COUNTER_ABI,
        eventName: "Incremented",
        onLogs: (logs) => {
          for (const log of logs) {
            this.logs.push({
              address: log.address.toLowerCase(),
              blockHash: log.blockHash,
              logIndex: log.logIndex,
              transactionHash: log.transactionHash,
              breaksBefore: this.errors.length,
            });
          }
        },
        onError,
      }),
    );
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    await this.closeSocket();
  }
}
