// End-to-end: a regtest node driven with web3.js 4: type-0 transactions signed with
// accounts.signTransaction, receipts, a contract deployed from a raw transaction, calls, past events
// filtered by an indexed argument, and a revert.

import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {Web3} from "web3";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

let node: RunningNode;
let web3: Web3;

beforeAll(async () => {
  node = await startNode();
  web3 = new Web3(node.httpUrl);
  web3.eth.transactionPollingInterval = 50;
  web3.eth.transactionReceiptPollingInterval = 50;
});

afterAll(async () => {
  await node?.stop();
});

describe("web3.js 4 against xchain regtest", () => {
  const key = () => web3.utils.keccak256(web3.utils.utf8ToHex("cow2"));

  async function signAndSend(tx: {to?: string; data?: string; value?: bigint; gas: number}) {
    const account = web3.eth.accounts.privateKeyToAccount(key());
    const nonce = await web3.eth.getTransactionCount(account.address, "pending");
    const signed = await web3.eth.accounts.signTransaction(
      {...tx, from: account.address, nonce, gasPrice: 0n, chainId: 33n, type: 0n},
      key(),
    );
    return web3.eth.sendSignedTransaction(signed.rawTransaction);
  }

  it("reads the chain id and a cow balance", async () => {
    expect(await web3.eth.getChainId()).toBe(33n);
    const account = web3.eth.accounts.privateKeyToAccount(key());
    expect(await web3.eth.getBalance(account.address)).toBe(10n ** 30n);
  });

  it("sends a signed type-0 transfer and gets its receipt", async () => {
    const to = web3.eth.accounts.create().address;
    const receipt = await signAndSend({to, value: 777n, gas: 21_000});
    expect(receipt.status).toBe(1n);
    expect(await web3.eth.getBalance(to)).toBe(777n);
  });

  it("deploys the contract, calls it and reads its events filtered by argument", async () => {
    const account = web3.eth.accounts.privateKeyToAccount(key());
    const deployed = await signAndSend({data: counterBytecode(), gas: 500_000});
    const counter = new web3.eth.Contract(COUNTER_ABI, deployed.contractAddress as string);
    await signAndSend({
      to: deployed.contractAddress as string,
      data: counter.methods.increment().encodeABI(),
      gas: 100_000,
    });
    expect(await counter.methods.count().call()).toBe(1n);
    const events = await counter.getPastEvents("Incremented", {filter: {by: account.address}, fromBlock: 0});
    expect(events).toHaveLength(1);
    const none = await counter.getPastEvents("Incremented", {filter: {value: 5}, fromBlock: 0});
    expect(none).toHaveLength(0);
    await expect(counter.methods.fail(11).call()).rejects.toThrow();
    const error = await counter.methods
      .fail(11)
      .call()
      .catch((e: unknown) => e);
    expect(JSON.stringify(error, (_k, v) => (typeof v === "bigint" ? String(v) : v))).toMatch(/too big/);
  });
});
