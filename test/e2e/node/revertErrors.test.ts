// End-to-end: reverts every client decodes (docs/rpc.md §7). On regtest a reverted eth_call or
// eth_estimateGas is geth's code 3 `execution reverted: <reason>` with the payload: viem, ethers 6 and
// web3.js 4 decode a reason string, a custom error's name and arguments, and a panic code from it.
// Under `--rpc.revertErrors rskj` the answer is rskj's -32015 and still carries the payload.
import {Contract, JsonRpcProvider, Wallet} from "ethers";
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  http,
  keccak256,
  toBytes,
} from "viem";
import {privateKeyToAccount} from "viem/accounts";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {Web3} from "web3";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {revertContract} from "../support/revertContract.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

const account = privateKeyToAccount(keccak256(toBytes("cow1")));
const PANIC_OVERFLOW = 0x11n;
const PANIC_ASSERT = 0x01n;

/** Deploys the test contract from cow1 on `node`; its address. */
async function deploy(node: RunningNode): Promise<Address> {
  const chain = regtestChain(node.httpUrl);
  const transport = http(node.httpUrl);
  const publicClient = createPublicClient({chain, transport, pollingInterval: 50});
  const walletClient = createWalletClient({account, chain, transport});
  const {abi, bytecode} = revertContract();
  const hash = await walletClient.deployContract({abi: abi as Abi, bytecode, type: "legacy"});
  const receipt = await publicClient.waitForTransactionReceipt({hash});
  return receipt.contractAddress as Address;
}

/** The `ContractFunctionRevertedError` under a viem error, or a failure naming what came instead. */
function revertedCause(error: unknown): ContractFunctionRevertedError {
  expect(error).toBeInstanceOf(BaseError);
  const cause = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
  expect(cause, String(error)).toBeInstanceOf(ContractFunctionRevertedError);
  return cause as ContractFunctionRevertedError;
}

describe("rpc.revertErrors = geth (the regtest default)", () => {
  let node: RunningNode;
  let reverter: Address;
  const abi = () => revertContract().abi as Abi;
  const publicClient = () => createPublicClient({chain: regtestChain(node.httpUrl), transport: http(node.httpUrl)});

  beforeAll(async () => {
    node = await startNode();
    reverter = await deploy(node);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("answers code 3 `execution reverted: <reason>` with the payload on the wire", async () => {
    const contract = new Contract(reverter, revertContract().abi as never);
    const data = contract.interface.encodeFunctionData("requireSmall", [11]);
    const fault = await rpc(node.httpUrl, "eth_call", [{to: reverter, data}, "latest"]).catch((e) => e);
    expect(fault).toBeInstanceOf(JsonRpcFault);
    expect(fault).toMatchObject({code: 3, message: "execution reverted: too big"});
    expect((fault as JsonRpcFault).data).toMatch(/^0x08c379a0/);
    const panic = contract.interface.encodeFunctionData("overflow", [1]);
    const overflow = await rpc(node.httpUrl, "eth_estimateGas", [{to: reverter, data: panic}]).catch((e) => e);
    expect(overflow).toMatchObject({code: 3, message: "execution reverted: arithmetic underflow or overflow"});
    const bare = contract.interface.encodeFunctionData("bare", []);
    const silent = await rpc(node.httpUrl, "eth_call", [{to: reverter, data: bare}, "latest"]).catch((e) => e);
    expect(silent).toMatchObject({code: 3, message: "execution reverted", data: "0x"});
  });

  it("viem: simulateContract and readContract yield ContractFunctionRevertedError with the reason", async () => {
    const simulated = await publicClient()
      .simulateContract({account, address: reverter, abi: abi(), functionName: "requireSmall", args: [11n]})
      .catch((e: unknown) => e);
    const reverted = revertedCause(simulated);
    expect(reverted.reason).toBe("too big");
    expect(reverted.data?.errorName).toBe("Error");
    const read = await publicClient()
      .readContract({address: reverter, abi: abi(), functionName: "requireSmall", args: [12n]})
      .catch((e: unknown) => e);
    expect(revertedCause(read).reason).toBe("too big");
  });

  it("viem: a custom error's name and arguments, and panic codes", async () => {
    const custom = await publicClient()
      .simulateContract({account, address: reverter, abi: abi(), functionName: "custom", args: [5n]})
      .catch((e: unknown) => e);
    const customError = revertedCause(custom);
    expect(customError.data?.errorName).toBe("Insufficient");
    expect(customError.data?.args).toEqual([account.address, 5n]);

    const overflow = await publicClient()
      .readContract({address: reverter, abi: abi(), functionName: "overflow", args: [1n]})
      .catch((e: unknown) => e);
    const overflowError = revertedCause(overflow);
    expect(overflowError.data?.errorName).toBe("Panic");
    expect(overflowError.data?.args).toEqual([PANIC_OVERFLOW]);

    const assertion = await publicClient()
      .estimateContractGas({account, address: reverter, abi: abi(), functionName: "assertZero", args: [3n]})
      .catch((e: unknown) => e);
    expect(revertedCause(assertion).data?.args).toEqual([PANIC_ASSERT]);
  });

  it("ethers 6: error.reason and error.revert for a reason, a custom error and a panic", async () => {
    const provider = new JsonRpcProvider(node.httpUrl, undefined, {cacheTimeout: -1});
    try {
      const contract = new Contract(reverter, revertContract().abi as never, provider);
      await expect(contract.getFunction("requireSmall").staticCall(11)).rejects.toMatchObject({
        code: "CALL_EXCEPTION",
        reason: "too big",
        revert: {name: "Error", args: ["too big"]},
      });
      await expect(contract.getFunction("custom").staticCall(7, {from: account.address})).rejects.toMatchObject({
        code: "CALL_EXCEPTION",
        revert: {name: "Insufficient", args: [account.address, 7n]},
      });
      // An estimate is not decoded with the contract's ABI by ethers: the payload is there to decode.
      const signer = new Wallet(keccak256(toBytes("cow1")), provider);
      const estimate = await (contract.connect(signer) as Contract)
        .getFunction("custom")
        .estimateGas(7)
        .catch((e: {code: string; data: string}) => e);
      expect(estimate).toMatchObject({code: "CALL_EXCEPTION"});
      const decoded = contract.interface.parseError((estimate as {data: string}).data);
      expect(decoded?.name).toBe("Insufficient");
      expect(decoded?.args.toArray()).toEqual([account.address, 7n]);
      await expect(contract.getFunction("overflow").staticCall(1)).rejects.toMatchObject({
        code: "CALL_EXCEPTION",
        reason: "Panic due to OVERFLOW(17)",
        // ethers gives the panic code as a number.
        revert: {name: "Panic", args: [Number(PANIC_OVERFLOW)]},
      });
    } finally {
      provider.destroy();
    }
  });

  it("web3.js 4: the reason, a custom error's name and arguments, and a panic", async () => {
    const web3 = new Web3(node.httpUrl);
    const contract = new web3.eth.Contract(revertContract().abi as never, reverter);
    const methods = contract.methods as unknown as Record<string, (...args: unknown[]) => {call(): Promise<unknown>}>;
    const failureOf = (name: string, ...args: unknown[]) =>
      methods[name]!(...args)
        .call()
        .catch((e: unknown) => e);
    const reason = (await failureOf("requireSmall", 11)) as {cause?: Record<string, unknown>};
    expect(reason.cause).toMatchObject({code: 3, errorName: "Error", errorArgs: {0: "too big"}});
    const custom = (await failureOf("custom", 9)) as {cause?: Record<string, unknown>};
    expect(custom.cause).toMatchObject({
      code: 3,
      errorName: "Insufficient",
      errorSignature: "Insufficient(address,uint256)",
    });
    expect(custom.cause?.errorArgs).toMatchObject({needed: 9n});
    const panic = (await failureOf("overflow", 1)) as {cause?: Record<string, unknown>};
    expect(panic.cause).toMatchObject({code: 3, errorName: "Panic", errorArgs: {0: PANIC_OVERFLOW}});
  });
});

describe("rpc.revertErrors = rskj", () => {
  let node: RunningNode;
  let reverter: Address;

  beforeAll(async () => {
    node = await startNode(["--rpc.revertErrors", "rskj"]);
    reverter = await deploy(node);
  });
  afterAll(async () => {
    await node?.stop();
  });

  it("answers -32015 `VM Exception while processing transaction: revert <reason>` with the payload", async () => {
    const contract = new Contract(reverter, revertContract().abi as never);
    const data = contract.interface.encodeFunctionData("requireSmall", [11]);
    const fault = await rpc(node.httpUrl, "eth_call", [{to: reverter, data}, "latest"]).catch((e) => e);
    expect(fault).toMatchObject({code: -32015, message: "VM Exception while processing transaction: revert too big"});
    expect((fault as JsonRpcFault).data).toMatch(/^0x08c379a0/);
  });

  it("still lets ethers 6 decode a custom error from the payload", async () => {
    const provider = new JsonRpcProvider(node.httpUrl, undefined, {cacheTimeout: -1});
    try {
      const contract = new Contract(reverter, revertContract().abi as never, provider);
      await expect(contract.getFunction("custom").staticCall(4, {from: account.address})).rejects.toMatchObject({
        code: "CALL_EXCEPTION",
        revert: {name: "Insufficient", args: [account.address, 4n]},
      });
    } finally {
      provider.destroy();
    }
  });
});
