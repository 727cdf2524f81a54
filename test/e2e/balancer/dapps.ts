// The two dapps the balancer test drives, each with its own API key (so that HAProxy may place them
// on different nodes) and its own Counter contract: one on ethers 6, one on viem 2. Each deploys,
// then in rounds sends an increment signed locally (eth_sendRawTransaction), waits for its receipt,
// reads its logs and polls its filter (PolledFilter).
//
// The retry policy of their HTTP clients, the only failures the test lets through: an answer of the
// balancer itself, 502/503/504 (no node could answer), is retried after a short pause; viem does it
// by default (3 times, backing off from 150 ms), and ethers' FetchRequest is told to (its throttle
// retry, up to 12 attempts). The balancer is never down in the test, so no connection to it fails.
// Every other error fails the round, and so the test. A transaction is signed first and sent raw:
// when the send reached a node that took it (and passed it on) and died before answering, HAProxy
// sends the same request to another node, which has it already and answers its hash as the first
// send would have (docs/rpc.md §4.4, docs/operations.md §11), so no such retry reaches the dapp.
import {
  ContractFactory,
  FetchRequest,
  id,
  JsonRpcProvider,
  Network,
  Transaction,
  type TransactionReceipt,
  type TransactionRequest,
  Wallet,
} from "ethers";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  toBytes,
  type TransactionReceipt as ViemReceipt,
  type WalletClient,
} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {regtestChain} from "../support/viemChain.ts";
import {PolledFilter} from "./polledFilter.ts";

/** The balancer's own error answers, retried by the clients. */
const BALANCER_ERRORS = new Set([502, 503, 504]);
const INCREMENTED = id("Incremented(address,uint256)");

/** What a dapp saw of the balancer. */
export class Traffic {
  /** The node (HAProxy server name, X-Xchain-Upstream) of each answer, in order. */
  readonly upstreams: string[] = [];
  /** Answers 502/503/504 that the client retried. */
  retried = 0;

  record(status: number, upstream: string | null): void {
    if (BALANCER_ERRORS.has(status)) this.retried++;
    if (upstream) this.upstreams.push(upstream);
  }

  /** The node that answered last. */
  get upstream(): string | undefined {
    return this.upstreams.at(-1);
  }
}

/** What both dapps offer the test. */
export interface Dapp {
  readonly name: string;
  readonly traffic: Traffic;
  /** Hashes of every transaction sent, in order. */
  readonly sent: string[];
  filter: PolledFilter;
  contract: string;
  deploy(): Promise<void>;
  /** Sends an increment, waits for its receipt, checks the logs eth_getLogs gives and polls the filter. */
  round(): Promise<void>;
  close(): void;
}

/** The ethers 6 dapp: a JsonRpcProvider on `url` (the balancer with the dapp's key in the path). */
export class EthersDapp implements Dapp {
  readonly name = "ethers";
  readonly traffic = new Traffic();
  readonly sent: string[] = [];
  filter!: PolledFilter;
  contract = "";
  private readonly provider: JsonRpcProvider;
  private readonly wallet: Wallet;

  constructor(url: string, secret: string) {
    const request = new FetchRequest(url);
    request.processFunc = async (_request, response) => {
      this.traffic.record(response.statusCode, response.headers["x-xchain-upstream"] ?? null);
      if (BALANCER_ERRORS.has(response.statusCode)) response.throwThrottleError("the balancer had no node", 100);
      return response;
    };
    // No cache of identical requests: a nonce read right after a receipt must be read again.
    this.provider = new JsonRpcProvider(request, Network.from(33), {
      staticNetwork: true,
      pollingInterval: 100,
      cacheTimeout: -1,
    });
    this.wallet = new Wallet(id(secret), this.provider);
  }

  /** Signs `request`, sends it raw and waits for its successful receipt. */
  private async transact(request: TransactionRequest): Promise<TransactionReceipt> {
    const signed = await this.wallet.signTransaction(await this.wallet.populateTransaction({...request, type: 0}));
    const hash = Transaction.from(signed).hash as string;
    this.sent.push(hash);
    const answered = await this.provider.broadcastTransaction(signed);
    if (answered.hash !== hash) throw new Error(`ethers: sent ${hash}, answered ${answered.hash}`);
    const receipt = await this.provider.waitForTransaction(hash);
    if (receipt?.status !== 1) throw new Error(`ethers: ${hash} failed`);
    return receipt;
  }

  async deploy(): Promise<void> {
    const factory = new ContractFactory(COUNTER_ABI, counterBytecode(), this.wallet);
    const receipt = await this.transact(await factory.getDeployTransaction());
    this.contract = (receipt.contractAddress as string).toLowerCase();
    this.filter = new PolledFilter(
      (method, params) => this.provider.send(method, params),
      this.contract.toLowerCase(),
      INCREMENTED,
      receipt.blockNumber,
    );
    await this.filter.install();
  }

  async round(): Promise<void> {
    const data = new ContractFactory(COUNTER_ABI, "0x").interface.encodeFunctionData("increment");
    const receipt = await this.transact({to: this.contract, data});
    const logs = await this.provider.getLogs({
      address: this.contract,
      topics: [INCREMENTED],
      blockHash: receipt.blockHash,
    });
    if (!logs.some((log) => log.transactionHash === receipt.hash)) {
      throw new Error(`ethers: no log of ${receipt.hash} in its block`);
    }
    await this.filter.poll();
  }

  close(): void {
    this.provider.destroy();
  }
}

/** The viem 2 dapp: a public and a wallet client on `url` over HTTP. */
export class ViemDapp implements Dapp {
  readonly name = "viem";
  readonly traffic = new Traffic();
  readonly sent: string[] = [];
  filter!: PolledFilter;
  contract = "";
  private readonly publicClient: PublicClient;
  private readonly wallet: WalletClient;
  private readonly account;

  constructor(url: string, secret: string) {
    const chain = regtestChain(url);
    const transport = http(url, {
      retryCount: 5,
      onFetchResponse: (response) => this.traffic.record(response.status, response.headers.get("x-xchain-upstream")),
    });
    this.account = privateKeyToAccount(keccak256(toBytes(secret)));
    this.publicClient = createPublicClient({chain, transport, pollingInterval: 100, cacheTime: 0});
    this.wallet = createWalletClient({account: this.account, chain, transport});
  }

  /** Signs `request`, sends it raw and waits for its successful receipt. */
  private async transact(request: {to?: Address; data: Hex}): Promise<ViemReceipt> {
    const prepared = await this.wallet.prepareTransactionRequest({
      ...request,
      account: this.account,
      chain: this.wallet.chain,
      type: "legacy",
    });
    const serializedTransaction = await this.wallet.signTransaction(prepared);
    const hash = keccak256(serializedTransaction);
    this.sent.push(hash);
    const answered = await this.wallet.sendRawTransaction({serializedTransaction});
    if (answered !== hash) throw new Error(`viem: sent ${hash}, answered ${answered}`);
    const receipt = await this.publicClient.waitForTransactionReceipt({hash, timeout: 60_000});
    if (receipt.status !== "success") throw new Error(`viem: ${hash} failed`);
    return receipt;
  }

  async deploy(): Promise<void> {
    const receipt = await this.transact({data: encodeDeployData({abi: COUNTER_ABI, bytecode: counterBytecode()})});
    this.contract = (receipt.contractAddress as string).toLowerCase();
    this.filter = new PolledFilter(
      (method, params) => this.publicClient.request({method: method as "eth_chainId", params: params as never}),
      this.contract,
      INCREMENTED,
      Number(receipt.blockNumber),
    );
    await this.filter.install();
  }

  async round(): Promise<void> {
    const data = encodeFunctionData({abi: COUNTER_ABI, functionName: "increment"});
    const receipt = await this.transact({to: this.contract as Address, data});
    const hash = receipt.transactionHash;
    const logs = await this.publicClient.getContractEvents({
      abi: COUNTER_ABI,
      address: this.contract as Address,
      eventName: "Incremented",
      blockHash: receipt.blockHash,
    });
    if (!logs.some((log) => log.transactionHash === hash)) throw new Error(`viem: no log of ${hash} in its block`);
    await this.filter.poll();
  }

  close(): void {}
}
