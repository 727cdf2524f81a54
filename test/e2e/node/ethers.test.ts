// End-to-end: a regtest node driven with ethers 6 as a dapp would: chain id, balances, legacy
// transfers signed locally, a Solidity contract deployed and called, logs by topic, a revert with
// its reason, and the node's own accounts (eth_accounts, eth_sendTransaction, eth_sign).
import {
  type Contract,
  ContractFactory,
  hexlify,
  id,
  JsonRpcProvider,
  parseEther,
  toBeHex,
  toUtf8Bytes,
  verifyMessage,
  Wallet,
  zeroPadValue,
} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const COW_BALANCE = 10n ** 30n;
let node: RunningNode;
let provider: JsonRpcProvider;
let cow: Wallet;

beforeAll(async () => {
  node = await startNode();
  // Instant mining answers a transfer once it is mined: ethers' 250 ms cache of identical requests
  // would hand the next transfer the previous eth_getTransactionCount (docs/mining.md, as against anvil).
  provider = new JsonRpcProvider(node.httpUrl, undefined, {pollingInterval: 50, cacheTimeout: -1});
  cow = new Wallet(id("cow"), provider);
});

afterAll(async () => {
  provider?.destroy();
  await node?.stop();
});

describe("ethers 6 against xchain regtest", () => {
  let counter: Contract;

  it("reads chain id 33 and the cow accounts' balances", async () => {
    expect((await provider.getNetwork()).chainId).toBe(33n);
    expect(await provider.getBalance(cow.address)).toBe(COW_BALANCE);
    expect(await provider.getBalance(new Wallet(id("cow9")).address)).toBe(COW_BALANCE);
  });

  it("sends a legacy transfer signed with a cow key and waits for its receipt", async () => {
    const to = Wallet.createRandom().address;
    const tx = await cow.sendTransaction({to, value: parseEther("1.5"), type: 0});
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(receipt?.from).toBe(cow.address);
    expect(await provider.getBalance(to)).toBe(parseEther("1.5"));
  });

  it("deploys a Solidity contract, calls it and reads its logs by topic", async () => {
    const factory = new ContractFactory(COUNTER_ABI, counterBytecode(), cow);
    counter = (await factory.deploy({type: 0})) as Contract;
    await counter.waitForDeployment();
    const increment = counter.getFunction("increment");
    await (await increment({type: 0})).wait();
    await (await increment({type: 0})).wait();
    expect(await counter.getFunction("count")()).toBe(2n);

    const address = await counter.getAddress();
    const topic = id("Incremented(address,uint256)");
    const mine = await provider.getLogs({address, fromBlock: 0, topics: [topic, zeroPadValue(cow.address, 32)]});
    expect(mine).toHaveLength(2);
    const second = await provider.getLogs({address, fromBlock: 0, topics: [topic, null, toBeHex(2, 32)]});
    expect(second).toHaveLength(1);
    const others = await provider.getLogs({address, fromBlock: 0, topics: [topic, zeroPadValue(address, 32)]});
    expect(others).toHaveLength(0);
    const events = await counter.queryFilter(counter.filters.Incremented!(cow.address));
    expect(events.map((e) => e.blockNumber)).toEqual(mine.map((l) => l.blockNumber));
  });

  it("surfaces a revert as geth's code 3 with its reason (rpc.revertErrors, docs/rpc.md §7)", async () => {
    await expect(counter.getFunction("fail")(11)).rejects.toMatchObject({code: "CALL_EXCEPTION", reason: "too big"});
    const data = counter.interface.encodeFunctionData("fail", [11]);
    const fault = await rpc(node.httpUrl, "eth_call", [{to: await counter.getAddress(), data}, "latest"]).catch(
      (e) => e,
    );
    expect(fault).toBeInstanceOf(JsonRpcFault);
    expect(fault).toMatchObject({code: 3, message: "execution reverted: too big"});
  });

  it("lists the cow accounts and sends and signs for them (eth_sendTransaction, eth_sign)", async () => {
    const accounts = await provider.send("eth_accounts", []);
    expect(accounts).toHaveLength(10);
    expect(accounts[0]).toBe(cow.address.toLowerCase());

    const signer = await provider.getSigner(accounts[1]);
    const to = Wallet.createRandom().address;
    const tx = await signer.sendTransaction({to, value: 1234n});
    expect((await tx.wait())?.status).toBe(1);
    expect(await provider.getBalance(to)).toBe(1234n);

    const message = hexlify(toUtf8Bytes("hello xchain"));
    const signature = await provider.send("eth_sign", [accounts[1], message]);
    expect(verifyMessage("hello xchain", signature).toLowerCase()).toBe(accounts[1]);
  });
});
