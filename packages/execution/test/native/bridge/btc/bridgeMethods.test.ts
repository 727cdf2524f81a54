/**
 * The light client and peg-ins through the Bridge contract (docs/protocol/native-contracts.md §10.5,
 * §10.6): calldata encoded and answers and events decoded with @rsksmart/rsk-precompiled-abis, on a
 * state holding the Bridge's genesis balance. A peg-in moves RBTC to its sender, and
 * `isBtcTxHashAlreadyProcessed` then says so.
 */
import {createRequire} from "node:module";
import type {MerkleStateManager} from "@ethereumjs/statemanager";
import {BRIDGE_GENESIS_BALANCE, regtestBridge} from "@xchain/chainspec";
import {bitcoinTxid, buildPartialMerkleTree, parseBitcoinTransaction} from "@xchain/merged-mining";
import {bytesToHex, concatBytes, hexToBytes, keccak256, publicKeyForms, publicKeyOf, reverseBytes} from "@xchain/utils";
import {getAddress, Interface} from "ethers";
import {beforeEach, describe, expect, it} from "vitest";
import {NativeContractFailure} from "../../../../src/errors.ts";
import {bridgeContract} from "../../../../src/native/bridge/contract.ts";
import {genesisFederation} from "../../../../src/native/bridge/federation.ts";
import type {NativeCallContext} from "../../../../src/native/dispatch/types.ts";
import {balanceOf, bridgeContext, bridgeState} from "../bridgeContext.ts";
import {
  federationScript,
  hashOf,
  mineChain,
  mineHeader,
  p2pkhScriptSig,
  pegInTransaction,
  REGTEST_GENESIS,
} from "./support.ts";

const require = createRequire(import.meta.url);
const abi = new Interface(require("@rsksmart/rsk-precompiled-abis").bridge.abi);
const calldata = (name: string, args: unknown[] = []) => hexToBytes(abi.encodeFunctionData(name, args).slice(2));
const hex = (bytes: Uint8Array) => `0x${bytesToHex(bytes)}`;

const genesis = hexToBytes(REGTEST_GENESIS);
const FEDERATOR = (genesisFederation(regtestBridge).members[0] as {rskAddress: Uint8Array}).rskAddress;
const senderKey = publicKeyForms(concatBytes(Uint8Array.of(4), publicKeyOf(keccak256(Uint8Array.of(9))))).compressed;
const senderRsk = keccak256(publicKeyForms(senderKey).uncompressed).slice(12);

let state: MerkleStateManager;
beforeEach(async () => {
  state = await bridgeState();
});

/** A mined transaction at RSK block `number` (time `timestamp`), from `sender`. */
const mined = (more: Partial<NativeCallContext> & {number?: number; timestamp?: number} = {}) => {
  const {number = 5, timestamp = 1_000, ...rest} = more;
  const context = bridgeContext(state, {localCall: false, transactionHash: new Uint8Array(32).fill(1), ...rest});
  return {...context, block: {...context.block, number, timestamp}};
};

async function run(name: string, args: unknown[], context: NativeCallContext) {
  const result = await bridgeContract.run(calldata(name, args), context);
  const decoded = result.output.length > 0 ? [...abi.decodeFunctionResult(name, hex(result.output))] : [];
  return {decoded, logs: result.logs ?? []};
}

const view = (name: string, args: unknown[] = []) => run(name, args, bridgeContext(state)).then((r) => r.decoded[0]);

describe("the light client through the Bridge", () => {
  it("receiveHeader adds a mined header once per 300 s of RSK block time; the getters follow", async () => {
    const [h1, h2] = mineChain(genesis, 2) as [Uint8Array, Uint8Array];
    expect((await run("receiveHeader", [hex(h1)], mined({timestamp: 1_000}))).decoded).toEqual([0n]);
    expect((await run("receiveHeader", [hex(h2)], mined({timestamp: 1_200}))).decoded).toEqual([-1n]);
    expect((await run("receiveHeader", [hex(h2)], mined({timestamp: 1_300}))).decoded).toEqual([0n]);
    expect((await run("receiveHeader", [hex(h2)], mined({timestamp: 9_000}))).decoded).toEqual([-4n]);
    expect(await view("getBtcBlockchainBestChainHeight")).toBe(2n);
    expect(await view("getBtcBlockchainBestBlockHeader")).toBe(hex(h2));
    expect(await view("getBtcBlockchainBlockHeaderByHeight", [1])).toBe(hex(h1));
    expect(await view("getBtcBlockchainBlockHashAtDepth", [1])).toBe(hex(hashOf(h1)));
  });

  it("receiveHeaders is for federators only: anyone else fails", async () => {
    const headers = mineChain(genesis, 3).map(hex);
    await expect(run("receiveHeaders", [headers], mined())).rejects.toBeInstanceOf(NativeContractFailure);
    await run("receiveHeaders", [headers], mined({sender: FEDERATOR}));
    expect(await view("getBtcBlockchainBestChainHeight")).toBe(3n);
  });

  it("getBtcTransactionConfirmations prices the block's depth, answers the count, and fails a bad branch", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [{value: 600_000n, script: federationScript()}]);
    const txid = bitcoinTxid(parseBitcoinTransaction(tx));
    const block = mineHeader(genesis, {merkleRoot: txid});
    await run("receiveHeaders", [[block, ...mineChain(block, 3)].map(hex)], mined({sender: FEDERATOR}));
    const args = [hex(reverseBytes(txid)), hex(hashOf(block)), 0, []];
    const data = calldata("getBtcTransactionConfirmations", args);
    expect(await bridgeContract.gas(data, bridgeContext(state))).toBe(27_000n + 3n * 315n + 2n * BigInt(data.length));
    expect(await view("getBtcTransactionConfirmations", args)).toBe(4n);
    await expect(view("getBtcTransactionConfirmations", [args[0], args[1], 1, []])).rejects.toBeInstanceOf(
      NativeContractFailure,
    );
  });
});

describe("a peg-in through the Bridge", () => {
  it("moves RBTC from the Bridge to the sender, emits pegin_btc, and isBtcTxHashAlreadyProcessed says so", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [{value: 2_500_000n, script: federationScript()}]);
    const txid = bitcoinTxid(parseBitcoinTransaction(tx));
    const block = mineHeader(genesis, {merkleRoot: txid});
    await run("receiveHeaders", [[block, ...mineChain(block, 2)].map(hex)], mined({sender: FEDERATOR}));
    const txidHex = bytesToHex(reverseBytes(txid));
    expect(await view("isBtcTxHashAlreadyProcessed", [txidHex])).toBe(false);

    const pmt = buildPartialMerkleTree([txid], 0).serialized;
    const {decoded, logs} = await run("registerBtcTransaction", [hex(tx), 1, hex(pmt)], mined({number: 42}));
    expect(decoded).toEqual([]);
    const wei = 2_500_000n * 10n ** 10n;
    expect(await balanceOf(state, senderRsk)).toBe(wei);
    expect(await balanceOf(state, hexToBytes("0000000000000000000000000000000001000006"))).toBe(
      BRIDGE_GENESIS_BALANCE - wei,
    );
    const parsed = logs.map((log) => abi.parseLog({topics: log.topics.map(hex), data: hex(log.data)}));
    expect(parsed.map((p) => [p?.name, ...(p?.args ?? [])])).toEqual([
      ["pegin_btc", getAddress(hex(senderRsk)), `0x${txidHex}`, 2_500_000n, 0n],
    ]);
    expect(await view("isBtcTxHashAlreadyProcessed", [txidHex])).toBe(true);
    expect(await view("getBtcTxHashProcessedHeight", [txidHex])).toBe(42n);

    // Registering it again changes nothing.
    const again = await run("registerBtcTransaction", [hex(tx), 1, hex(pmt)], mined({number: 43}));
    expect(again.logs).toEqual([]);
    expect(await balanceOf(state, senderRsk)).toBe(wei);
  });

  it("registerBtcTransaction refuses STATICCALL and fails a malformed partial merkle tree", async () => {
    const tx = pegInTransaction(p2pkhScriptSig(senderKey), [{value: 2_500_000n, script: federationScript()}]);
    await expect(
      run("registerBtcTransaction", [hex(tx), 1, "0x00"], mined({callType: "STATICCALL"})),
    ).rejects.toBeInstanceOf(NativeContractFailure);
    const block = mineHeader(genesis, {merkleRoot: bitcoinTxid(parseBitcoinTransaction(tx))});
    await run("receiveHeaders", [[block, ...mineChain(block, 2)].map(hex)], mined({sender: FEDERATOR}));
    await expect(run("registerBtcTransaction", [hex(tx), 1, "0x0100"], mined())).rejects.toBeInstanceOf(
      NativeContractFailure,
    );
  });
});
