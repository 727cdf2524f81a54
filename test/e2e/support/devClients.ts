// The dev node the client harnesses drive (hardhat-network-helpers, cast, viem's test client): an
// xchain regtest node started as a dev loop runs it, or anvil for checking a harness itself.
// XCHAIN_CLIENT_TEST_TARGET=anvil runs the same assertions against anvil (installed on first use by
// scripts/bench/rpc/servers.mjs): a local validation that the tests expect what anvil does; by
// default, and in CI, the target is xchain.
import {spawn} from "node:child_process";
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type PrivateKeyAccount,
  type PublicClient,
} from "viem";
import {generatePrivateKey, privateKeyToAccount} from "viem/accounts";
import {regtestChain} from "./viemChain.ts";
import {startNode} from "./xchainProcess.ts";

/** Blocks only when transactions come (instant mining) or on request: the head stays where a test puts it. */
export const NO_INTERVAL_BLOCKS = ["--miner.blockTimeMs", "0"];

/** PUSH1 0 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: a contract that answers its storage slot 0. */
export const SLOT0_READER = "0x60005460005260206000f3";

/** What `web3_clientVersion` answers: the helpers refuse a node whose version does not start with HardhatNetwork, anvil or zksync. */
export const DEV_CLIENT_VERSION = "HardhatNetwork/xchain";

/** The node under test. */
export interface DevTarget {
  kind: "xchain" | "anvil";
  url: string;
  stop(): Promise<void>;
}

/** The target named by XCHAIN_CLIENT_TEST_TARGET (`xchain`, the default, or `anvil`). */
export function devTargetKind(): DevTarget["kind"] {
  const kind = process.env.XCHAIN_CLIENT_TEST_TARGET ?? "xchain";
  if (kind !== "xchain" && kind !== "anvil") throw new Error(`XCHAIN_CLIENT_TEST_TARGET=${kind}: xchain or anvil`);
  return kind;
}

/**
 * Starts the target with chain id 33, blocks mined only for transactions and on request (xchain:
 * no interval blocks; anvil's default) and the client version the Hardhat helpers accept.
 */
export async function startDevTarget(): Promise<DevTarget> {
  if (devTargetKind() === "anvil") return startAnvil();
  const node = await startNode([...NO_INTERVAL_BLOCKS, "--rpc.clientVersion", DEV_CLIENT_VERSION]);
  return {kind: "xchain", url: node.httpUrl, stop: async () => void (await node.stop())};
}

/** A viem client that reads the chain back (uncached: a read right after a control sees its effect). */
export function chainReader(url: string): PublicClient {
  return createPublicClient({transport: http(url), pollingInterval: 50, cacheTime: 0});
}

/** anvil (1.7.1, as the benchmarks install it) on a free loopback port with `args` (chain id 33 by default). */
export async function startAnvil(args = ["--chain-id", "33"]): Promise<DevTarget> {
  const servers = join(import.meta.dirname, "..", "..", "..", "scripts", "bench", "rpc", "servers.mjs");
  const {anvilBinary} = (await import(pathToFileURL(servers).href)) as {anvilBinary(): string};
  const child = spawn(anvilBinary(), ["--host", "127.0.0.1", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // anvil on port 0 prints the port it bound; what it logs after that is dropped.
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const listening = /Listening on ([\d.]+:\d+)/.exec(out);
      if (!listening) return;
      child.stdout.off("data", onData).resume();
      resolve(`http://${listening[1]}`);
    };
    child.stdout.on("data", onData);
    void exited.then(() => reject(new Error(`anvil exited before it listened:\n${out}`)));
  });
  return {
    kind: "anvil",
    url,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** viem's test client in `mode`, a reader and a wallet of `account` (a fresh key by default) on the node at `url`. */
export function viemDevClients(
  url: string,
  mode: "anvil" | "hardhat",
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
) {
  const chain = regtestChain(url);
  const transport = http(url);
  return {
    account,
    test: createTestClient({mode, chain, transport}),
    publicClient: createPublicClient({chain, transport, pollingInterval: 50}),
    wallet: createWalletClient({account, chain, transport}),
  };
}
