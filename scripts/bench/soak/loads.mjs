// The soak's mixed load against one regtest node, every loop bounded in requests and in time and
// sent only to the node's loopback endpoints: transactions (value transfers to a growing set of
// accounts, token transfers, log-emitting calls) sent continuously so that blocks carry them, and
// the reads a dapp backend makes (eth_call with distinct inputs, eth_getLogs over recent ranges,
// eth_getBalance of many accounts, full blocks), WebSocket newHeads/logs subscriptions and
// installed filters polled.
import {setTimeout as sleep} from "node:timers/promises";
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import WebSocket from "ws";
import {call, keepAliveAgent} from "../rpc/loadGenerator.mjs";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "../token.mjs";

const SOURCE = `${SOLIDITY_HEADER}${TOKEN_CONTRACT}
contract Emitter {
    event Ping(uint256 indexed n, address indexed from);
    function ping(uint256 n) external { for (uint256 i = 0; i < n; i++) emit Ping(i, msg.sender); }
}`;
const CHAIN_ID = 33;
const EMPTY = new Uint8Array(0);
/** Accounts the transfers go to and the balance reads ask for: the state grows to this many. */
const ACCOUNTS = 20_000;
/** Logs one emitter transaction writes. */
const LOGS_PER_PING = 5;
/** Blocks back from the head an eth_getLogs range or a full-block read reaches. */
const RECENT_BLOCKS = 500;
/** A filter is uninstalled and a new one installed after this many polls (dapps come and go). */
const POLLS_PER_FILTER = 60;

/** The address of account `i` of the soak's recipient set. */
function recipient(i) {
  return keccak256(utf8ToBytes(`soak account ${i}`)).subarray(12);
}

function randomInt(n) {
  return Math.floor(Math.random() * n);
}

function word(bytes) {
  const out = new Uint8Array(32);
  out.set(bytes, 32 - bytes.length);
  return out;
}

/** A signer tracking its nonce; resynchronised from the node after a refused send. */
class Signer {
  constructor(privateKey) {
    this.privateKey = privateKey;
    this.address = publicKeyToAddress(publicKeyOf(privateKey));
    this.hex = bytesToPrefixedHex(this.address);
    this.nonce = 0n;
  }

  async sync(agent, url) {
    this.nonce = BigInt(await call(agent, url, "eth_getTransactionCount", [this.hex, "pending"]));
  }

  sign(gasPrice, {to, value = 0n, data = EMPTY, gasLimit = 21_000n}) {
    const values = {nonce: this.nonce++, gasPrice, gasLimit, to, value, data};
    return bytesToPrefixedHex(Transaction.sign(values, this.privateKey, CHAIN_ID).encode());
  }
}

/** Waits for the receipt of `hash` (the regtest miner includes it within a second or so). */
async function receipt(agent, url, hash) {
  for (let i = 0; i < 600; i++) {
    const r = await call(agent, url, "eth_getTransactionReceipt", [hash]);
    if (r) {
      if (r.status !== "0x1") throw new Error(`transaction ${hash} failed`);
      return r;
    }
    await sleep(50);
  }
  throw new Error(`no receipt for ${hash} after 30 s`);
}

/** Deploys the token and the emitter and funds the senders; `funderKey` holds the regtest coins. */
export async function prepare(url, funderKey, senderCount) {
  const agent = keepAliveAgent(1);
  const gasPrice = BigInt(await call(agent, url, "eth_gasPrice"));
  const funder = new Signer(funderKey);
  await funder.sync(agent, url);
  const {Token, Emitter} = compileSolidity(SOURCE);
  const deploy = async (bytecode) => {
    const hash = await call(agent, url, "eth_sendRawTransaction", [
      funder.sign(gasPrice, {to: undefined, data: bytecode, gasLimit: 1_500_000n}),
    ]);
    return (await receipt(agent, url, hash)).contractAddress;
  };
  const token = await deploy(Token.bytecode);
  const emitter = await deploy(Emitter.bytecode);
  const senders = Array.from({length: senderCount}, (_, i) => new Signer(keccak256(utf8ToBytes(`soak sender ${i}`))));
  let last;
  for (const s of senders) {
    last = await call(agent, url, "eth_sendRawTransaction", [
      funder.sign(gasPrice, {to: s.address, value: 10n ** 24n}),
    ]);
  }
  if (last) await receipt(agent, url, last);
  agent.destroy();
  return {gasPrice, funder, token, emitter, senders, selectors: {...Token.selectors, ...Emitter.selectors}};
}

/** Counts of one load: requests answered, error answers or failures, notifications received. */
function counter(name) {
  return {name, requests: 0, errors: 0, notifications: 0, lastError: undefined};
}

/**
 * Runs `step` until `endAt` or `maxSteps`, pausing `paceMs` between steps; a failed step is
 * counted and the loop goes on after a second (the node may be busy; the soak is about memory).
 */
async function loop(stats, {endAt, maxSteps, paceMs}, step) {
  for (let i = 0; i < maxSteps && Date.now() < endAt; i++) {
    try {
      await step(i);
      stats.requests++;
    } catch (e) {
      stats.errors++;
      stats.lastError = e.message;
      await sleep(1000);
    }
    if (paceMs > 0) await sleep(paceMs);
  }
}

/** The transaction loops: each sender sends one transaction of its kind after the other. */
function transactionLoops(url, chain, bounds, txPaceMs) {
  const {gasPrice, funder, token, emitter, senders, selectors} = chain;
  const kinds = [
    // Value transfers to the recipient set: the account trie grows up to ACCOUNTS leaves.
    (signer) => signer.sign(gasPrice, {to: recipient(randomInt(ACCOUNTS)), value: 1n}),
    // Token transfers: the funder holds the tokens, so it signs them.
    () =>
      funder.sign(gasPrice, {
        to: hexToBytes(token),
        gasLimit: 100_000n,
        data: new Uint8Array([
          ...selectors["transfer(address,uint256)"],
          ...word(recipient(randomInt(ACCOUNTS))),
          ...word([1]),
        ]),
      }),
    // Contract calls that write logs.
    (signer) =>
      signer.sign(gasPrice, {
        to: hexToBytes(emitter),
        gasLimit: 200_000n,
        data: new Uint8Array([...selectors["ping(uint256)"], ...word([LOGS_PER_PING])]),
      }),
  ];
  return kinds.map((sign, k) => {
    const stats = counter(["tx: transfer", "tx: token transfer", "tx: emit logs"][k]);
    const signer = [senders[0], funder, senders[1]][k];
    const agent = keepAliveAgent(1);
    const run = async () => {
      await signer.sync(agent, url);
      await loop(stats, {...bounds, paceMs: txPaceMs}, async () => {
        try {
          await call(agent, url, "eth_sendRawTransaction", [sign(signer)]);
        } catch (e) {
          await signer.sync(agent, url);
          throw e;
        }
      });
      agent.destroy();
    };
    return {stats, run};
  });
}

/** One read loop: `request(head)` gives the method and params of the next request. */
function readLoop(name, url, bounds, request) {
  const stats = counter(name);
  const agent = keepAliveAgent(1);
  let head = 0;
  const run = async () => {
    await loop(stats, bounds, async (i) => {
      if (i % 20 === 0) head = Number(await call(agent, url, "eth_blockNumber"));
      const [method, params] = request(head);
      await call(agent, url, method, params);
    });
    agent.destroy();
  };
  return {stats, run};
}

const hex = (n) => `0x${n.toString(16)}`;

/** The read loops, one client each. */
function readLoops(url, chain, bounds) {
  const {token, emitter, selectors} = chain;
  let distinct = 0;
  return [
    readLoop("eth_call balanceOf (distinct)", url, bounds, () => [
      "eth_call",
      [
        {
          to: token,
          data: bytesToPrefixedHex(
            new Uint8Array([...selectors["balanceOf(address)"], ...word(recipient(ACCOUNTS + distinct++))]),
          ),
        },
        "latest",
      ],
    ]),
    readLoop("eth_getLogs (recent range)", url, bounds, (head) => {
      const to = Math.max(0, head - randomInt(RECENT_BLOCKS));
      const from = Math.max(0, to - randomInt(100));
      const address = [token, emitter, undefined][randomInt(3)];
      return ["eth_getLogs", [{fromBlock: hex(from), toBlock: hex(to), ...(address ? {address} : {})}]];
    }),
    readLoop("eth_getBalance (20,000 accounts)", url, bounds, () => [
      "eth_getBalance",
      [bytesToPrefixedHex(recipient(randomInt(ACCOUNTS))), "latest"],
    ]),
    readLoop("eth_getBlockByNumber (full)", url, bounds, (head) => [
      "eth_getBlockByNumber",
      [hex(Math.max(0, head - randomInt(RECENT_BLOCKS))), true],
    ]),
  ];
}

/** A logs filter and a block filter, polled every second and replaced every POLLS_PER_FILTER polls. */
function filterLoop(url, chain, bounds) {
  const stats = counter("filters (logs + blocks, polled)");
  const agent = keepAliveAgent(1);
  let ids = [];
  const run = async () => {
    await loop(stats, {...bounds, paceMs: 1000}, async (i) => {
      if (i % POLLS_PER_FILTER === 0) {
        for (const id of ids) await call(agent, url, "eth_uninstallFilter", [id]);
        ids = [
          await call(agent, url, "eth_newFilter", [{address: chain.emitter}]),
          await call(agent, url, "eth_newBlockFilter"),
        ];
      }
      for (const id of ids) stats.notifications += (await call(agent, url, "eth_getFilterChanges", [id])).length;
    });
    for (const id of ids) await call(agent, url, "eth_uninstallFilter", [id]).catch(() => {});
    agent.destroy();
  };
  return {stats, run};
}

/** `connections` WebSocket clients, each with a newHeads and a logs subscription, held to the end. */
function subscriptionLoop(wsUrl, connections, endAt) {
  const stats = counter(`WebSocket newHeads + logs (${connections} connections)`);
  const open = () =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(wsUrl);
      socket.on("error", reject);
      socket.on("open", () => {
        socket.send(JSON.stringify({jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"]}));
        socket.send(JSON.stringify({jsonrpc: "2.0", id: 2, method: "eth_subscribe", params: ["logs", {}]}));
        resolve(socket);
      });
      socket.on("message", (data) => {
        const message = JSON.parse(String(data));
        if (message.error) {
          stats.errors++;
          stats.lastError = JSON.stringify(message.error);
        } else if (message.id !== undefined) stats.requests++;
        else stats.notifications++;
      });
    });
  const run = async () => {
    const sockets = await Promise.all(Array.from({length: connections}, open));
    await sleep(Math.max(0, endAt - Date.now()));
    for (const s of sockets) s.close();
  };
  return {stats, run};
}

/** Every loop of the soak; `run()` of each resolves when its time is up. */
export function soakLoads({http, ws}, chain, {endAt, txPaceMs, readPaceMs, wsConnections}) {
  // At most one request per millisecond of the run per loop: a bound that a stalled clock cannot lift.
  const maxSteps = Math.max(1, endAt - Date.now());
  const bounds = {endAt, maxSteps, paceMs: readPaceMs};
  return [
    ...transactionLoops(http, chain, bounds, txPaceMs),
    ...readLoops(http, chain, bounds),
    filterLoop(http, chain, bounds),
    subscriptionLoop(ws, wsConnections, endAt),
  ];
}
