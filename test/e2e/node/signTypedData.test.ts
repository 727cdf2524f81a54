// End-to-end: EIP-712 signatures from the node's accounts (docs/rpc.md §4.4), asked for as dapps ask:
// viem's signTypedData over JSON-RPC, ethers' JsonRpcSigner.signTypedData and web3.js'
// eth.signTypedData from a dev account, and eth_signTypedData_v4 from an unlocked keystore account;
// each signature verified by ethers and viem. Bad typed data is -32602 with its path.
import {verifyTypedData as ethersVerify, JsonRpcProvider} from "ethers";
import {createWalletClient, getAddress, http, verifyTypedData as viemVerify} from "viem";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {Web3} from "web3";
import {JsonRpcFault, rpc} from "../support/jsonRpc.ts";
import {regtestChain} from "../support/viemChain.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

/** The second cow account, a dev account of the regtest node (docs/protocol/networks.md §3). */
const COW1 = getAddress("0x7986b3df570230288501eea3d890bd66948c9b79");

const domain = {name: "Ether Mail", version: "1", chainId: 33, verifyingContract: getAddress(`0x${"cc".repeat(20)}`)};
const types = {
  Person: [
    {name: "name", type: "string"},
    {name: "wallet", type: "address"},
    {name: "score", type: "int16"},
  ],
  Mail: [
    {name: "from", type: "Person"},
    {name: "to", type: "Person[]"},
    {name: "contents", type: "string"},
    {name: "attachment", type: "bytes"},
  ],
} as const;
const message = {
  from: {name: "Cow", wallet: COW1, score: -3},
  to: [{name: "Bob", wallet: getAddress(`0x${"b0".repeat(20)}`), score: 250}],
  contents: "Hello, Bob!",
  attachment: "0xc0ffee",
} as const;
const EIP712_DOMAIN = [
  {name: "name", type: "string"},
  {name: "version", type: "string"},
  {name: "chainId", type: "uint256"},
  {name: "verifyingContract", type: "address"},
];

let node: RunningNode;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

/** Whether ethers and viem both recover `signer` from `signature` over the mail. */
async function verifiedBoth(signer: string, signature: `0x${string}`): Promise<boolean> {
  const byEthers = ethersVerify(domain, types as never, message, signature) === signer;
  const byViem = await viemVerify({
    address: signer as `0x${string}`,
    domain,
    types,
    primaryType: "Mail",
    message,
    signature,
  });
  return byEthers && byViem;
}

describe("eth_signTypedData_v4", () => {
  it("signs for viem's wallet client with a JSON-RPC account", async () => {
    const client = createWalletClient({
      account: COW1,
      chain: regtestChain(node.httpUrl),
      transport: http(node.httpUrl),
    });
    const signature = await client.signTypedData({domain, types, primaryType: "Mail", message});
    expect(await verifiedBoth(COW1, signature)).toBe(true);
  });

  it("signs for ethers' JsonRpcSigner", async () => {
    const provider = new JsonRpcProvider(node.httpUrl, undefined, {cacheTimeout: -1});
    try {
      const signer = await provider.getSigner(COW1);
      const signature = (await signer.signTypedData(domain, types as never, message)) as `0x${string}`;
      expect(await verifiedBoth(COW1, signature)).toBe(true);
    } finally {
      provider.destroy();
    }
  });

  it("signs for web3.js' eth.signTypedData", async () => {
    const web3 = new Web3(node.httpUrl);
    const signature = (await web3.eth.signTypedData(COW1, {
      domain,
      types: {EIP712Domain: EIP712_DOMAIN, ...types} as never,
      primaryType: "Mail",
      message: message as never,
    })) as `0x${string}`;
    expect(await verifiedBoth(COW1, signature)).toBe(true);
  });

  it("signs from an unlocked keystore account", async () => {
    const key = `0x${"5a".repeat(32)}`;
    const account = getAddress(await rpc<string>(node.httpUrl, "personal_importRawKey", [key.slice(2), "pass"]));
    const typed = {types: {EIP712Domain: EIP712_DOMAIN, ...types}, primaryType: "Mail", domain, message};
    const signature = await rpc<`0x${string}`>(node.httpUrl, "eth_signTypedData_v4", [account, JSON.stringify(typed)]);
    expect(await verifiedBoth(account, signature)).toBe(true);
    await rpc(node.httpUrl, "personal_lockAccount", [account]);
    await expect(rpc(node.httpUrl, "eth_signTypedData_v4", [account, typed])).rejects.toMatchObject({code: -32000});
  });

  it("answers -32602 naming what is wrong, and -32601 with advice for the older methods", async () => {
    const cyclic = {types: {Mail: [{name: "reply", type: "Mail"}]}, primaryType: "Mail", domain, message: {}};
    const fault = await rpc(node.httpUrl, "eth_signTypedData_v4", [COW1, cyclic]).catch((e) => e);
    expect(fault).toBeInstanceOf(JsonRpcFault);
    expect(fault).toMatchObject({
      code: -32602,
      message: "invalid argument 1 (typedData.types.Mail): a type may not contain itself: Mail → Mail",
    });
    const v3 = await rpc(node.httpUrl, "eth_signTypedData_v3", [COW1, cyclic]).catch((e) => e);
    expect(v3).toMatchObject({code: -32601});
    expect((v3 as JsonRpcFault).message).toContain("sign with eth_signTypedData_v4");
  });
});
