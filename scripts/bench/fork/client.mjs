// The JSON-RPC client of the fork benchmark: one keep-alive connection to one server, a call per
// awaited request (as a test's provider sends them), contract calls encoded with viem from solc's ABI.
import {setTimeout as sleep} from "node:timers/promises";
import {decodeFunctionResult, encodeFunctionData} from "viem";
import {call, keepAliveAgent} from "../rpc/loadGenerator.mjs";

export class Client {
  /** Gas used by the transactions this client sent, summed from their receipts. */
  gasUsed = 0n;

  constructor(url) {
    this.url = url;
    this.agent = keepAliveAgent(1);
  }

  call(method, params = []) {
    return call(this.agent, this.url, method, params);
  }

  /** eth_call of `functionName` on `contract` ({address, abi}) at `block`; the decoded result. */
  async read(contract, functionName, args = [], block = "latest") {
    const data = encodeFunctionData({abi: contract.abi, functionName, args});
    const result = await this.call("eth_call", [{to: contract.address, data}, block]);
    return decodeFunctionResult({abi: contract.abi, functionName, data: result});
  }

  /**
   * eth_sendTransaction from `from` (a dev or impersonated account; the server fills gas and fees), then
   * waits for its receipt as ethers' `wait()` does: the block number first (a local answer on both
   * servers), then the receipt; throws when the transaction reverted.
   */
  async send(from, tx) {
    const before = BigInt(await this.call("eth_blockNumber"));
    const hash = await this.call("eth_sendTransaction", [{from, ...tx}]);
    while (BigInt(await this.call("eth_blockNumber")) <= before) await sleep(2);
    for (;;) {
      const receipt = await this.call("eth_getTransactionReceipt", [hash]);
      if (receipt) {
        if (receipt.status !== "0x1") throw new Error(`transaction ${hash} from ${from} reverted`);
        this.gasUsed += BigInt(receipt.gasUsed);
        return receipt;
      }
      await sleep(2);
    }
  }

  /** A contract call sent as a transaction from `from`; its receipt. */
  invoke(from, contract, functionName, args = [], extra = {}) {
    return this.send(from, {
      to: contract.address,
      data: encodeFunctionData({abi: contract.abi, functionName, args}),
      ...extra,
    });
  }

  close() {
    this.agent.destroy();
  }
}
