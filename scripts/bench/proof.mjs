// eth_getProof next to eth_getBalance in one run, over JSON-RPC on loopback (32 requests in
// flight, keep-alive HTTP): a regtest chain whose genesis holds `accounts` funded accounts and a
// contract with 10 set storage slots; eth_getProof asks for the contract and its 10 keys at
// `latest`, eth_getBalance for a funded account. Prints requests/s and p50/p99 latency of each.
// In-process (Chain on a MemoryStore, RpcServer); needs a build.
//
//   node scripts/bench/proof.mjs [accounts=100000] [secondsPerMethod=5]
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {MemoryStore} from "@xchain/db";
import {BlockExecutor} from "@xchain/execution";
import {defaultRpcOptions, RpcServer} from "@xchain/rpc";
import {defaultStateOptions, StateDatabase} from "@xchain/state";
import {defaultTxPoolOptions, TxPool} from "@xchain/txpool";
import {bigIntToFixedBytes, toData} from "@xchain/utils";
import {measure} from "./rpc/loadGenerator.mjs";

const [accounts, seconds] = [100_000, 5].map((d, i) => Number(process.argv[2 + i] ?? d));
const chainspec = getChainspec("regtest");
const addressOf = (n) => bigIntToFixedBytes(BigInt(n) + 0x1000n, 20);
const word = (n) => bigIntToFixedBytes(BigInt(n), 32);
const contract = bigIntToFixedBytes(0xc0ffeen, 20);
const slots = Array.from({length: 10}, (_, i) => word(i));
const genesis = {
  header: regtestGenesis.header,
  alloc: [
    ...regtestGenesis.alloc,
    ...Array.from({length: accounts}, (_, i) => ({address: addressOf(i), balance: 10n ** 18n + BigInt(i)})),
    // STOP as code: the account has code and storage, as a token contract would.
    {address: contract, balance: 0n, code: Uint8Array.of(0), storage: slots.map((slot, i) => [slot, word(i + 1)])},
  ],
};

let t = performance.now();
const store = new MemoryStore();
const state = new StateDatabase(defaultStateOptions, {store});
const chain = await Chain.open(defaultChainOptions, {store, chainspec, genesis, state});
process.stderr.write(`genesis of ${accounts} accounts: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
const server = await RpcServer.start(
  {...defaultRpcOptions, http: {...defaultRpcOptions.http, port: 0}, ws: {...defaultRpcOptions.ws, enabled: false}},
  {
    chainspec,
    chain,
    txpool: new TxPool(defaultTxPoolOptions, {chainspec, chain}),
    executor: new BlockExecutor({}, {chainspec, state}),
    clientVersion: "xchain/bench",
  },
);
const url = `http://127.0.0.1:${server.httpPort}`;
const request = (method, params) => JSON.stringify({jsonrpc: "2.0", id: 1, method, params});
const loads = [
  ["eth_getBalance", request("eth_getBalance", [toData(addressOf(accounts >> 1)), "latest"])],
  ["eth_getProof (10 keys)", request("eth_getProof", [toData(contract), slots.map(toData), "latest"])],
];
console.log(`${accounts} accounts, ${seconds} s per method, 32 in flight`);
for (const [name, body] of loads) {
  t = performance.now();
  const {perSecond, p50, p99} = await measure(url, body, {durationMs: seconds * 1000});
  console.log(
    `${name.padEnd(24)} ${perSecond.toFixed(0).padStart(7)} req/s  p50 ${p50.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms`,
  );
}
await server.close();
