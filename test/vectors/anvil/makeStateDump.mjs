/**
 * Makes `anvil-1.7.1-state-dump.json`: runs a real anvil 1.7.1 (the benchmarks' binary,
 * scripts/bench/rpc/servers.mjs `anvilBinary()`), edits a few accounts with anvil_* controls, sends
 * one transaction, and records anvil_dumpState's answer with the values xchain must read back.
 * Run: node test/vectors/anvil/makeStateDump.mjs (then commit the JSON it writes beside it).
 */
import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {call, keepAliveAgent} from "../../../scripts/bench/rpc/loadGenerator.mjs";
import {startAnvil} from "../../../scripts/bench/rpc/servers.mjs";

const anvil = await startAnvil();
const agent = keepAliveAgent(1);
const rpc = (method, params = []) => call(agent, anvil.url, method, params);

const contract = "0x00000000000000000000000000000000c0ffee01";
const holder = "0x1111111111111111111111111111111111111111";
// PUSH1 1 PUSH1 0 SSTORE STOP
const code = "0x6001600055600060005500";
const slot0 = "0x0000000000000000000000000000000000000000000000000000000000000000";
const slot7 = "0x0000000000000000000000000000000000000000000000000000000000000007";
const value7 = "0x00000000000000000000000000000000000000000000000000000000deadbeef";
try {
  await rpc("anvil_setCode", [contract, code]);
  await rpc("anvil_setStorageAt", [contract, slot7, value7]);
  await rpc("anvil_setNonce", [contract, "0x5"]);
  await rpc("anvil_setBalance", [contract, "0x2a"]);
  await rpc("anvil_setBalance", [holder, "0xde0b6b3a7640000"]);
  const [sender] = await rpc("eth_accounts");
  const hash = await rpc("eth_sendTransaction", [{from: sender, to: contract, gas: "0x186a0"}]);
  // The benchmarks' anvil mines a block a second.
  while ((await rpc("eth_getTransactionReceipt", [hash])) === null) await new Promise((r) => setTimeout(r, 100));
  const state = await rpc("anvil_dumpState");
  const read = async (address) => ({
    balance: await rpc("eth_getBalance", [address, "latest"]),
    nonce: await rpc("eth_getTransactionCount", [address, "latest"]),
    code: await rpc("eth_getCode", [address, "latest"]),
  });
  const expected = {
    [contract]: {...(await read(contract)), storage: {[slot0]: await rpc("eth_getStorageAt", [contract, slot0, "latest"]), [slot7]: value7}},
    [holder]: await read(holder),
    [sender]: await read(sender),
  };
  const file = join(import.meta.dirname, "anvil-1.7.1-state-dump.json");
  writeFileSync(file, `${JSON.stringify({anvil: await rpc("web3_clientVersion"), state, expected}, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
} finally {
  agent.destroy();
  await anvil.stop();
}
