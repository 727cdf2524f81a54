// Cross-check of xchain's traces against anvil's: the same contract interactions run on both (a
// call tree with call, staticcall, a revert inside a successful transaction, delegatecall, a
// precompile, create2 and selfdestruct; an out-of-gas sub-call; a value transfer; a call to an
// account without code), then each transaction's `trace_transaction` and `debug_traceTransaction`
// with `callTracer` are compared as call trees: structure, frame types, addresses (named by first
// appearance, since the two chains deploy at different addresses), values, inputs, outputs and
// errors. Gas is not compared: the schedules differ. Prints every difference; docs/protocol/
// traces.md §9 records what it found. anvil comes from the benchmarks' cache (scripts/bench/rpc/
// servers.mjs). Needs a build (`npm run build`).
//
//   node scripts/traceCrossCheck.mjs
import {setTimeout as sleep} from "node:timers/promises";
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {compileSolidity, TRACE_CHILD_SOURCE} from "@xchain/test-utils";
import {bytesToPrefixedHex, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import {call, keepAliveAgent} from "./bench/rpc/loadGenerator.mjs";
import {startAnvil, startXchain} from "./bench/rpc/servers.mjs";

const SOURCE = `${TRACE_CHILD_SOURCE}
contract Parent {
    function run(address c) external returns (uint256 r) {
        r = Child(c).ping(1);
        (bool ok, ) = c.staticcall(abi.encodeWithSignature("count()"));
        (ok, ) = c.call(abi.encodeWithSignature("fail()"));
        (ok, ) = c.delegatecall(abi.encodeWithSignature("ping(uint256)", 3));
        (ok, ) = address(4).staticcall("hi");
        Child made = new Child{salt: bytes32(uint256(1))}();
        made.bye(payable(msg.sender));
    }
    function starve(address c) external returns (bool ok) {
        (ok, ) = c.call{gas: 50000}(abi.encodeWithSignature("burn()"));
    }
}`;

const CHAIN_ID = 33;
const ANVIL_FUNDER = hexToBytes("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
const COW = keccak256(utf8ToBytes("cow"));
const agent = keepAliveAgent(1);

/** Deploys and runs the interactions on one server; the hashes of the interesting transactions, by name. */
async function play(server, key) {
  const sender = publicKeyToAddress(publicKeyOf(key));
  let nonce = BigInt(await call(agent, server.url, "eth_getTransactionCount", [bytesToPrefixedHex(sender), "pending"]));
  const gasPrice = BigInt(await call(agent, server.url, "eth_gasPrice")) * 2n;
  const send = async (values) => {
    const tx = Transaction.sign(
      {nonce: nonce++, gasPrice, value: 0n, data: new Uint8Array(), ...values},
      key,
      CHAIN_ID,
    );
    const hash = await call(agent, server.url, "eth_sendRawTransaction", [bytesToPrefixedHex(tx.encode())]);
    for (;;) {
      const receipt = await call(agent, server.url, "eth_getTransactionReceipt", [hash]);
      if (receipt) return receipt;
      await sleep(50);
    }
  };
  const {Child, Parent} = compileSolidity(SOURCE);
  const child = hexToBytes((await send({data: Child.bytecode, gasLimit: 1_000_000n})).contractAddress);
  const parent = hexToBytes((await send({data: Parent.bytecode, gasLimit: 2_000_000n})).contractAddress);
  const withAddress = (selector) => new Uint8Array([...selector, ...new Uint8Array(12), ...child]);
  const run = await send({to: parent, data: withAddress(Parent.selectors["run(address)"]), gasLimit: 3_000_000n});
  const starve = await send({to: parent, data: withAddress(Parent.selectors["starve(address)"]), gasLimit: 500_000n});
  const transfer = await send({to: hexToBytes(`0x${"77".repeat(20)}`), value: 1n, gasLimit: 21_000n});
  const codeless = await send({to: hexToBytes(`0x${"78".repeat(20)}`), data: utf8ToBytes("hi"), gasLimit: 50_000n});
  return {run, starve, transfer, codeless};
}

/**
 * Replaces addresses by A0, A1, … in order of first appearance, so that two chains compare; an
 * address already named is also replaced inside data (an ABI-encoded argument).
 */
function addressNamer() {
  const names = new Map();
  const name = (value) => {
    if (typeof value !== "string") return value;
    if (/^0x[0-9a-f]{40}$/i.test(value)) {
      const key = value.toLowerCase().slice(2);
      if (!names.has(key)) names.set(key, `A${names.size}`);
      return names.get(key);
    }
    let named = value.toLowerCase();
    // Low addresses (precompiles) look like small numbers in data: only the others are replaced.
    for (const [key, alias] of names) if (!key.startsWith("0".repeat(32))) named = named.replaceAll(key, `<${alias}>`);
    return named;
  };
  return name;
}

/** A parity trace list as a tree of comparable nodes. */
function parityTree(traces) {
  const name = addressNamer();
  // Every frame's addresses are named before the data that may carry them.
  const nodes = traces.map((t) => ({
    type: t.type === "call" ? (t.action.callType ?? "call") : t.type,
    from: name(t.action.from ?? t.action.address),
    to: name(t.action.to ?? t.result?.address ?? t.action.refundAddress),
    value: t.action.value ?? t.action.balance,
    input: t.action.input ?? t.action.init,
    output: t.result?.output ?? t.result?.code,
    error: t.error,
    at: t.traceAddress.join("."),
  }));
  return nodes.map((n) => ({...n, input: name(n.input), output: name(n.output)}));
}

/** A callTracer frame as a list of comparable nodes, depth first. */
function callTracerTree(frame) {
  const name = addressNamer();
  const nodes = [];
  const walk = (f, at) => {
    nodes.push({
      type: f.type,
      from: name(f.from),
      to: name(f.to),
      value: f.value ?? "0x0",
      input: f.input,
      output: f.output,
      error: f.error,
      revertReason: f.revertReason,
      at: at.join("."),
    });
    (f.calls ?? []).forEach((c, i) => {
      walk(c, [...at, i]);
    });
  };
  walk(frame, []);
  // Every frame's addresses are named before the data that may carry them.
  return nodes.map((n) => ({...n, input: name(n.input), output: name(n.output)}));
}

/** The differences between two node lists, as lines. */
function compare(label, ours, theirs) {
  const lines = [];
  const byAt = (nodes) => new Map(nodes.map((n) => [n.at, n]));
  const a = byAt(ours);
  const b = byAt(theirs);
  for (const at of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(at);
    const y = b.get(at);
    if (!x || !y) {
      lines.push(`${label} [${at}]: only on ${x ? "xchain" : "anvil"} (${JSON.stringify(x ?? y)})`);
      continue;
    }
    for (const key of Object.keys({...x, ...y})) {
      if (key === "at") continue;
      const [u, v] = [x[key], y[key]];
      if ((u ?? null) !== (v ?? null) && !(key === "value" && BigInt(u ?? 0) === BigInt(v ?? 0))) {
        lines.push(`${label} [${at}] ${key}: xchain ${JSON.stringify(u)}, anvil ${JSON.stringify(v)}`);
      }
    }
  }
  return lines;
}

const xchain = await startXchain();
const anvil = await startAnvil();
try {
  const ours = await play(xchain, COW);
  const theirs = await play(anvil, ANVIL_FUNDER);
  const differences = [];
  for (const name of Object.keys(ours)) {
    const get = (server, played, method, params) =>
      call(agent, server.url, method, [played[name].transactionHash, ...params]);
    differences.push(
      ...compare(
        `${name} trace_transaction`,
        parityTree(await get(xchain, ours, "trace_transaction", [])),
        parityTree(await get(anvil, theirs, "trace_transaction", [])),
      ),
      ...compare(
        `${name} callTracer`,
        callTracerTree(await get(xchain, ours, "debug_traceTransaction", [{tracer: "callTracer"}])),
        callTracerTree(await get(anvil, theirs, "debug_traceTransaction", [{tracer: "callTracer"}])),
      ),
    );
  }
  for (const line of differences) console.log(line);
  console.log(`${differences.length} differences over ${Object.keys(ours).length} transactions`);
} finally {
  agent.destroy();
  await xchain.stop();
  await anvil.stop();
}
