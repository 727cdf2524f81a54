// The benchmark's chain contents, built the same way on each server through JSON-RPC alone: an
// ERC-20 token, 20,000 logs from an emitter contract, and 50 funded senders for the burst of
// 2,000 signed transfers.
import {setTimeout as sleep} from "node:timers/promises";
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {compileSolidity} from "@xchain/test-utils";
import {bytesToPrefixedHex, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {SOLIDITY_HEADER, TOKEN_CONTRACT} from "../token.mjs";
import {call, keepAliveAgent} from "./loadGenerator.mjs";

const SOURCE = `${SOLIDITY_HEADER}${TOKEN_CONTRACT}
contract Emitter {
    event Ping();
    function ping(uint256 n) external { for (uint256 i = 0; i < n; i++) emit Ping(); }
}`;

/** Logs the emitter writes in all, and per transaction. */
export const LOG_COUNT = 20_000;
const LOGS_PER_TX = 1_000;
const SENDERS = 50;
/** Transfers of the burst. */
export const BURST_SIZE = 2_000;
const IN_FLIGHT = 32;
const CHAIN_ID = 33;
const EMPTY = new Uint8Array(0);

/** A signer on one server, tracking its nonce. */
class Account {
  constructor(privateKey, nonce = 0n) {
    this.privateKey = privateKey;
    this.address = publicKeyToAddress(publicKeyOf(privateKey));
    this.nonce = nonce;
  }

  sign(gasPrice, {to, value = 0n, data = EMPTY, gasLimit = 21_000n}) {
    const values = {nonce: this.nonce++, gasPrice, gasLimit, to, value, data};
    return bytesToPrefixedHex(Transaction.sign(values, this.privateKey, CHAIN_ID).encode());
  }
}

/** Sends raw transactions with `IN_FLIGHT` outstanding; returns their hashes in order. */
async function sendAll(agent, url, raws) {
  const hashes = new Array(raws.length);
  let next = 0;
  const worker = async () => {
    while (next < raws.length) {
      const i = next++;
      hashes[i] = await call(agent, url, "eth_sendRawTransaction", [raws[i]]);
    }
  };
  await Promise.all(Array.from({length: IN_FLIGHT}, worker));
  return hashes;
}

/** Polls until every hash has a receipt; returns the receipts. */
async function receiptsOf(agent, url, hashes) {
  const receipts = new Array(hashes.length);
  for (let i = 0; i < hashes.length; i++) {
    for (;;) {
      receipts[i] = await call(agent, url, "eth_getTransactionReceipt", [hashes[i]]);
      if (receipts[i]) break;
      await sleep(20);
    }
    if (receipts[i].status !== "0x1") throw new Error(`transaction ${hashes[i]} failed`);
  }
  return receipts;
}

/** Deploys the contracts, writes the logs and funds the burst's senders; `funderKey` holds the server's coins. */
export async function prepare(url, funderKey) {
  const agent = keepAliveAgent(IN_FLIGHT);
  const gasPrice = BigInt(await call(agent, url, "eth_gasPrice"));
  const funder = new Account(
    funderKey,
    BigInt(
      await call(agent, url, "eth_getTransactionCount", [
        bytesToPrefixedHex(publicKeyToAddress(publicKeyOf(funderKey))),
        "pending",
      ]),
    ),
  );
  const {Token, Emitter} = compileSolidity(SOURCE);
  const deploy = (bytecode) => funder.sign(gasPrice, {to: undefined, data: bytecode, gasLimit: 1_500_000n});
  const [tokenReceipt, emitterReceipt] = await receiptsOf(
    agent,
    url,
    await sendAll(agent, url, [deploy(Token.bytecode), deploy(Emitter.bytecode)]),
  );
  const emitter = hexToBytes(emitterReceipt.contractAddress);

  const pingData = new Uint8Array([
    ...Emitter.selectors["ping(uint256)"],
    ...new Uint8Array(30),
    LOGS_PER_TX >> 8,
    LOGS_PER_TX & 0xff,
  ]);
  const pings = Array.from({length: LOG_COUNT / LOGS_PER_TX}, () =>
    funder.sign(gasPrice, {to: emitter, data: pingData, gasLimit: 2_000_000n}),
  );
  const senders = Array.from({length: SENDERS}, (_, i) => new Account(keccak256(utf8ToBytes(`rpc bench sender ${i}`))));
  const funding = senders.map((s) => funder.sign(gasPrice, {to: s.address, value: 10n ** 18n}));
  await receiptsOf(agent, url, await sendAll(agent, url, [...pings, ...funding]));
  agent.destroy();
  return {
    gasPrice,
    funder: bytesToPrefixedHex(funder.address),
    token: tokenReceipt.contractAddress,
    emitter: emitterReceipt.contractAddress,
    balanceOfData: bytesToPrefixedHex(
      new Uint8Array([...Token.selectors["balanceOf(address)"], ...new Uint8Array(12), ...funder.address]),
    ),
    senders,
  };
}

/** Signs BURST_SIZE transfers from the senders, sends them 32 at a time and waits for every receipt; returns transfers/s. */
export async function burst(url, {senders, gasPrice}) {
  const sink = keccak256(utf8ToBytes("rpc bench sink")).subarray(12);
  const raws = [];
  while (raws.length < BURST_SIZE) {
    for (const s of senders) raws.push(s.sign(gasPrice, {to: sink, value: 1n}));
  }
  const agent = keepAliveAgent(IN_FLIGHT);
  const started = performance.now();
  const hashes = await sendAll(agent, url, raws);
  // Each sender's last transfer is included only after its earlier ones (nonce order).
  await receiptsOf(agent, url, hashes.slice(-senders.length));
  const seconds = (performance.now() - started) / 1000;
  await receiptsOf(agent, url, hashes);
  agent.destroy();
  return {perSecond: BURST_SIZE / seconds, seconds};
}
