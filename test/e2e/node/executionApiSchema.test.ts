// End-to-end: the node's answers checked against the ecosystem's own schema (docs/rpc.md §4.11).
// For every eth_*, net_* and web3_* method of the Ethereum execution API's OpenRPC document
// (@metamask/api-specs), valid parameters are built from a chain this test makes (a contract
// deployed, called and emitting logs, a raw transfer, filters with changes), the node is called and
// its answer validated against the method's result schema with ajv. The methods that do not conform
// are EXCEPTIONS, the list docs/rpc.md §4.11 writes down: a method the document gains must be served
// and valid or be listed, and a listed one must still differ exactly as listed. rpc.discover's own
// document is checked against OpenRPC's meta-schema, and its parameter and result schemas against
// what this test sends and gets.
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {Interface, id as keccakId, Wallet} from "ethers";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import WebSocket from "ws";
import {COUNTER_ABI, counterBytecode} from "../support/counterContract.ts";
import {waitForReceipt} from "../support/jsonRpc.ts";
import {CORRECTIONS, EXECUTION_API, type OpenRpcDocument, SchemaValidators} from "../support/openRpcSchemas.ts";
import {type RunningNode, startNode} from "../support/xchainProcess.ts";

/** The namespaces checked. */
const IN_SCOPE = /^(eth|net|web3)_/;

/**
 * A method that does not conform: not served (it answers an error to valid parameters), or served
 * with answers whose schema errors are exactly `differences` (as `describeErrors` words them).
 */
type Exception = {reason: string} & ({kind: "not served"} | {kind: "differs"; differences: string[]});

/** Rootstock's block members (docs/rpc.md §2.3), which the document's `Block` does not allow. */
const ROOTSTOCK_BLOCK_MEMBERS = [
  "bitcoinMergedMiningCoinbaseTransaction",
  "bitcoinMergedMiningHeader",
  "bitcoinMergedMiningMerkleProof",
  "cumulativeDifficulty",
  "hashForMergedMining",
  "minimumGasPrice",
  "paidFees",
].map((member) => `/: must NOT have additional properties (${member})`);

const NO_FEE_MARKET =
  "xchain has no EIP-1559 fee market (blocks have no `baseFeePerGas`): -32601 with the advice to send legacy transactions (§4.4)";

/** The exceptions, the table of docs/rpc.md §4.11 (a test below keeps the two the same). */
const EXCEPTIONS: Record<string, Exception> = {
  eth_requestAccounts: {
    kind: "not served",
    reason:
      "a wallet's method (EIP-1102: asks its user to connect accounts); a node has no user to ask, `eth_accounts` lists its accounts",
  },
  eth_decrypt: {kind: "not served", reason: "MetaMask's own decryption with a user's key, not a node's method"},
  eth_getEncryptionPublicKey: {kind: "not served", reason: "MetaMask's own, as `eth_decrypt`"},
  eth_blobBaseFee: {kind: "not served", reason: "Rootstock has no blob transactions (EIP-4844), so no blob gas"},
  eth_feeHistory: {kind: "not served", reason: NO_FEE_MARKET},
  eth_maxPriorityFeePerGas: {kind: "not served", reason: NO_FEE_MARKET},
  eth_getTransactionByHash: {
    kind: "differs",
    reason:
      "a pending transaction has `blockHash`, `blockNumber` and `transactionIndex` null, as the seed specification " +
      "says (§2.4) and geth answers, where the document has no pending transaction",
    differences: ["/blockHash: must be string", "/blockNumber: must be string", "/transactionIndex: must be string"],
  },
  eth_getBlockByHash: {
    kind: "differs",
    reason:
      "Rootstock's members beside the document's, which allows no other (`additionalProperties: false`): " +
      "`bitcoinMergedMiningHeader`, `bitcoinMergedMiningCoinbaseTransaction`, `bitcoinMergedMiningMerkleProof`, " +
      "`hashForMergedMining`, `minimumGasPrice`, `paidFees`, `cumulativeDifficulty` (§2.3)",
    differences: ROOTSTOCK_BLOCK_MEMBERS,
  },
  eth_getBlockByNumber: {
    kind: "differs",
    reason:
      "Rootstock's members, as `eth_getBlockByHash`; the `pending` block has `number`, `hash`, `nonce` and `logsBloom` null " +
      "as the seed specification says (§2.3), where the document has no pending block",
    differences: [
      ...ROOTSTOCK_BLOCK_MEMBERS,
      "/hash: must be string",
      "/logsBloom: must be string",
      "/nonce: must be string",
      "/number: must be string",
    ],
  },
};

/** A JSON-RPC answer. */
type Answer = {result: unknown} | {error: {code: number; message: string}};

/** What the calls build on: the chain this test makes. */
interface Chain {
  from: string;
  counter: string;
  deployHash: string;
  incrementHash: string;
  /** A transaction left in the pool: mining stops before it is sent. */
  pendingHash: string;
  /** The block of the increment (its transaction emits the log). */
  block: {number: string; hash: string};
  logFilter: string;
  blockFilter: string;
  pendingFilter: string;
}

/** One method's calls: each a list of positional parameters, valid by the document's schemas. */
type Calls = (chain: Chain) => Promise<unknown[][]> | unknown[][];

const counter = new Interface(COUNTER_ABI);
const INCREMENTED = keccakId("Incremented(address,uint256)");
const UNKNOWN_HASH = `0x${"ab".repeat(32)}`;
const FAR_BLOCK = "0xffffff";
const RECIPIENT = `0x${"bb".repeat(20)}`;
/** cow2 (test/vectors/regtest-accounts.json), signing the raw transfers. */
const cow2 = new Wallet(keccakId("cow2"));

/** The calls of each method: a method of the document absent here and from EXCEPTIONS fails the test. */
const CALLS: Record<string, Calls> = {
  web3_clientVersion: () => [[]],
  eth_accounts: () => [[]],
  eth_blockNumber: () => [[]],
  eth_chainId: () => [[]],
  eth_coinbase: () => [[]],
  eth_gasPrice: () => [[]],
  eth_syncing: () => [[]],
  eth_call: (c) => [
    [{to: c.counter, input: counter.encodeFunctionData("count")}, "latest"],
    [{from: c.from, to: c.counter, input: counter.encodeFunctionData("count")}, c.block.number],
  ],
  eth_estimateGas: (c) => [[{from: c.from, to: c.counter, input: counter.encodeFunctionData("increment")}]],
  eth_feeHistory: () => [["0x2", "latest", [25, 75]]],
  eth_getBalance: (c) => [
    [c.from, "latest"],
    [c.from, "finalized"],
    [c.from, c.block.hash],
  ],
  eth_getCode: (c) => [[c.counter, "latest"]],
  eth_getStorageAt: (c) => [[c.counter, "0x0", "latest"]],
  eth_getTransactionCount: (c) => [
    [c.from, c.block.number],
    [c.from, "pending"],
  ],
  eth_getProof: (c) => [
    [c.counter, ["0x0", `0x${"00".repeat(31)}01`], "latest"],
    [c.from, [], "latest"],
  ],
  eth_getBlockByNumber: (c) => [
    [c.block.number, false],
    [c.block.number, true],
    ["0x0", false],
    ["earliest", false],
    ["latest", true],
    ["pending", false],
    ["safe", false],
    ["finalized", true],
    [FAR_BLOCK, false],
  ],
  eth_getBlockByHash: (c) => [
    [c.block.hash, false],
    [c.block.hash, true],
    [UNKNOWN_HASH, false],
  ],
  eth_getBlockReceipts: (c) => [[c.block.number], [c.block.hash], ["latest"], ["safe"], [FAR_BLOCK]],
  eth_getBlockTransactionCountByHash: (c) => [[c.block.hash], [UNKNOWN_HASH]],
  eth_getBlockTransactionCountByNumber: (c) => [[c.block.number], [FAR_BLOCK]],
  eth_getUncleCountByBlockHash: (c) => [[c.block.hash], [UNKNOWN_HASH]],
  eth_getUncleCountByBlockNumber: (c) => [[c.block.number], [FAR_BLOCK]],
  eth_getTransactionByHash: (c) => [[c.deployHash], [c.incrementHash], [c.pendingHash], [UNKNOWN_HASH]],
  eth_getTransactionByBlockHashAndIndex: (c) => [
    [c.block.hash, "0x0"],
    [c.block.hash, "0x9"],
  ],
  eth_getTransactionByBlockNumberAndIndex: (c) => [
    [c.block.number, "0x0"],
    [FAR_BLOCK, "0x0"],
  ],
  eth_getTransactionReceipt: (c) => [[c.deployHash], [c.incrementHash], [c.pendingHash], [UNKNOWN_HASH]],
  eth_getLogs: (c) => [
    [{fromBlock: "0x0", toBlock: c.block.number, address: c.counter, topics: [INCREMENTED]}],
    [{fromBlock: c.block.number, toBlock: c.block.number}],
    // No log: an empty answer (see CORRECTIONS).
    [{fromBlock: "0x0", toBlock: "0x0"}],
  ],
  eth_newFilter: (c) => [[{fromBlock: "0x0", address: [c.counter], topics: [[INCREMENTED]]}]],
  eth_newBlockFilter: () => [[]],
  eth_newPendingTransactionFilter: () => [[]],
  eth_getFilterChanges: (c) => [[c.logFilter], [c.blockFilter], [c.pendingFilter]],
  eth_getFilterLogs: (c) => [[c.logFilter]],
  eth_uninstallFilter: async (c) => [[await result(call("eth_newBlockFilter", []))], [c.blockFilter]],
  eth_sendTransaction: (c) => [[{from: c.from, to: RECIPIENT, value: "0x1"}]],
  eth_sendRawTransaction: async () => [[await signedTransfer()]],
  eth_signTypedData_v4: (c) => [[c.from, typedData()]],
  eth_subscribe: () => [["newHeads"], ["logs", {topics: [INCREMENTED]}]],
  eth_unsubscribe: () => [["0x0123"]],
  eth_requestAccounts: () => [[]],
  eth_getEncryptionPublicKey: (c) => [[c.from]],
  eth_decrypt: (c) => [["0x7b2276657273696f6e223a227832353531392d7873616c736132302d706f6c7931333035227d", c.from]],
  eth_blobBaseFee: () => [[]],
  eth_maxPriorityFeePerGas: () => [[]],
};

/** Methods only a WebSocket serves (docs/rpc.md §4.8). */
const OVER_WEBSOCKET = new Set(["eth_subscribe", "eth_unsubscribe"]);

let node: RunningNode;
let chain: Chain;
let socket: WebSocket;
const validators = new SchemaValidators();
/** Every call made, for the checks of rpc.discover's document. */
const made: {method: string; params: unknown[]; answer: Answer}[] = [];

beforeAll(async () => {
  node = await startNode(["--miner.blockTimeMs", "0", "--p2p.enabled", "false"]);
  socket = await openSocket(node.wsUrl);
  const [from] = (await result(call("eth_accounts", []))) as string[];
  // The filters come first, so that the blocks, logs and transactions below are their changes.
  const logFilter = (await result(call("eth_newFilter", [{fromBlock: "0x0", topics: [INCREMENTED]}]))) as string;
  const blockFilter = (await result(call("eth_newBlockFilter", []))) as string;
  const pendingFilter = (await result(call("eth_newPendingTransactionFilter", []))) as string;
  const deployHash = (await result(
    call("eth_sendTransaction", [{from, data: counterBytecode(), gas: "0x7a120"}]),
  )) as string;
  const deployed = await waitForReceipt(node.httpUrl, deployHash);
  const address = deployed.contractAddress as string;
  const incrementHash = (await result(
    call("eth_sendTransaction", [{from, to: address, data: counter.encodeFunctionData("increment"), gas: "0x186a0"}]),
  )) as string;
  const incremented = await waitForReceipt(node.httpUrl, incrementHash);
  await waitForReceipt(
    node.httpUrl,
    (await result(call("eth_sendRawTransaction", [await signedTransfer()]))) as string,
  );
  // Mining stops here: a transaction sent now stays pending.
  await result(call("evm_setAutomine", [false]));
  const pendingHash = (await result(call("eth_sendRawTransaction", [await signedTransfer()]))) as string;
  chain = {
    from: from as string,
    counter: address,
    deployHash,
    incrementHash,
    pendingHash,
    block: {number: incremented.blockNumber as string, hash: incremented.blockHash as string},
    logFilter,
    blockFilter,
    pendingFilter,
  };
  made.length = 0;
});

afterAll(async () => {
  socket?.close();
  await node?.stop();
});

describe("the execution API's OpenRPC document (docs/rpc.md §4.11)", () => {
  const methods = EXECUTION_API.methods.filter((m) => IN_SCOPE.test(m.name));

  for (const correction of CORRECTIONS) {
    it(`is corrected where it refuses geth's own answers: ${correction.schema}`, () => {
      expect(validators.isValid(correction.schema, correction.witness, true)).toBe(false);
      expect(validators.isValid(correction.schema, correction.witness, false)).toBe(true);
    });
  }

  it("names each of its methods here, with calls or as an exception, and no other", () => {
    const inDocument = new Set(methods.map((m) => m.name));
    expect(methods.length).toBeGreaterThan(30);
    expect(methods.filter((m) => !CALLS[m.name]).map((m) => m.name)).toEqual([]);
    expect(Object.keys(CALLS).filter((name) => !inDocument.has(name))).toEqual([]);
    expect(Object.keys(EXCEPTIONS).filter((name) => !inDocument.has(name))).toEqual([]);
  });

  for (const method of methods) {
    it(`${method.name}: ${describeExpectation(method.name)}`, async () => {
      const calls = CALLS[method.name];
      if (!calls) throw new Error(`${method.name} is new in the document: give it calls and check its answers`);
      const {params: paramValidators, resultErrors} = validators.method(method.name);
      const answers: Answer[] = [];
      const sent = await calls(chain);
      for (const params of sent) {
        params.forEach((value, i) => {
          const validate = paramValidators[i];
          if (!validate?.(value)) {
            throw new Error(`test bug: argument ${i} of ${method.name} is not valid by the document: ${value}`);
          }
        });
        answers.push(await call(method.name, params));
      }
      const exception = EXCEPTIONS[method.name];
      if (exception?.kind === "not served") {
        const codes = answers.map((a) => ("error" in a ? a.error.code : "a result"));
        expect(codes, "served now: check its answers and take it out of EXCEPTIONS").toEqual(codes.map(() => -32601));
        return;
      }
      // An error answer to valid parameters is a difference too, named by the parameters.
      const errors = new Set<string>();
      answers.forEach((answer, i) => {
        const lines =
          "error" in answer ? [`${JSON.stringify(sent[i])}: error ${answer.error.code}`] : resultErrors(answer.result);
        for (const line of lines) errors.add(line);
      });
      expect([...errors].sort()).toEqual(exception?.kind === "differs" ? [...exception.differences].sort() : []);
    });
  }
});

describe("the chain the calls read", () => {
  /** The result of the first call of `method` with `params`. */
  const answered = (method: string, ...params: unknown[]): unknown => {
    const found = made.find((m) => m.method === method && JSON.stringify(m.params) === JSON.stringify(params));
    return found && "result" in found.answer ? found.answer.result : undefined;
  };
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);

  it("made answers worth checking: transactions in a block, logs, filter changes, proofs", () => {
    const block = answered("eth_getBlockByNumber", chain.block.number, true) as {transactions?: unknown[]};
    expect(length(block?.transactions)).toBeGreaterThan(0);
    const receipt = answered("eth_getTransactionReceipt", chain.incrementHash) as {logs?: unknown[]};
    expect(length(receipt?.logs)).toBeGreaterThan(0);
    for (const filter of [chain.logFilter, chain.blockFilter, chain.pendingFilter]) {
      expect(length(answered("eth_getFilterChanges", filter)), filter).toBeGreaterThan(0);
    }
    expect(length(answered("eth_getFilterLogs", chain.logFilter))).toBeGreaterThan(0);
    // The call object's `input` (the document's name for `data`) is read: the counter answers 1.
    const count = answered("eth_call", {to: chain.counter, input: counter.encodeFunctionData("count")}, "latest");
    expect(BigInt(count as string)).toBe(1n);
    const proof = made.find((m) => m.method === "eth_getProof" && m.params[0] === chain.counter)?.answer;
    expect(proof && "result" in proof ? proof.result : undefined).toMatchObject({
      storageProof: [{value: "0x1"}, {value: "0x0"}],
    });
  });
});

describe("rpc.discover's own document (docs/rpc.md §4.9)", () => {
  let discovered: OpenRpcDocument;
  const ID = "xchain:rpc.discover";

  beforeAll(async () => {
    discovered = (await result(call("rpc.discover", []))) as OpenRpcDocument;
    validators.addDocument(ID, discovered);
  });

  it("is an OpenRPC document by OpenRPC's meta-schema, and valid by its own result schema", () => {
    expect(validators.openRpcErrors(discovered)).toEqual([]);
    // The meta-schema is not vacuous: a document without its `info` is refused.
    expect(validators.openRpcErrors({...discovered, info: undefined})).toContain(
      "/: must have required property 'info'",
    );
    expect(validators.method("rpc.discover", ID).resultErrors(discovered)).toEqual([]);
  });

  it("declares schemas that the parameters sent above and the node's answers to them meet", () => {
    expect(made.length).toBeGreaterThan(50);
    const names = new Set(discovered.methods.map((m) => m.name));
    const problems: string[] = [];
    // Only the calls the node answered: a refused parameter may well be outside its schema.
    for (const {method, params, answer} of made) {
      if (!names.has(method) || !("result" in answer)) continue;
      const {params: paramValidators, resultErrors} = validators.method(method, ID);
      params.forEach((value, i) => {
        if (!paramValidators[i]?.(value)) problems.push(`${method} argument ${i}: ${JSON.stringify(value)}`);
      });
      const errors = resultErrors(answer.result);
      if (errors.length > 0) problems.push(`${method} result: ${errors.join("; ")}`);
    }
    expect(problems).toEqual([]);
  });
});

describe("docs/rpc.md §4.11", () => {
  it("lists the same exceptions, with the same reasons", () => {
    const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "rpc.md"), "utf8");
    const section = doc.slice(doc.indexOf("### 4.11 "), doc.indexOf("\n## 5. "));
    const rows = [...section.matchAll(/^\| `([A-Za-z0-9_]+)` \| (not served|differs) \| (.+) \|$/gm)].map((m) => ({
      method: m[1] as string,
      kind: m[2] as string,
      reason: m[3] as string,
    }));
    const listed = Object.entries(EXCEPTIONS).map(([method, e]) => ({method, kind: e.kind, reason: e.reason}));
    expect(rows).toEqual(listed);
  });
});

function describeExpectation(name: string): string {
  const exception = EXCEPTIONS[name];
  if (!exception) return "answers valid by the document";
  return exception.kind === "not served" ? `not served (${exception.reason})` : `differs (${exception.reason})`;
}

/** Calls `method` (over the WebSocket for subscriptions) and records the call. */
async function call(method: string, params: unknown[]): Promise<Answer> {
  const answer = OVER_WEBSOCKET.has(method) ? await overSocket(method, params) : await overHttp(method, params);
  made.push({method, params, answer});
  return answer;
}

async function result(answer: Promise<Answer>): Promise<unknown> {
  const a = await answer;
  if ("error" in a) throw new Error(`error answer: ${a.error.message}`);
  return a.result;
}

let nextId = 1;

async function overHttp(method: string, params: unknown[]): Promise<Answer> {
  const response = await fetch(node.httpUrl, {
    method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({jsonrpc: "2.0", id: nextId++, method, params}),
  });
  return (await response.json()) as Answer;
}

function overSocket(method: string, params: unknown[]): Promise<Answer> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as Answer & {id?: number};
      if (message.id !== id) return;
      socket.off("message", onMessage);
      resolve(message);
    };
    socket.on("message", onMessage);
    socket.send(JSON.stringify({jsonrpc: "2.0", id, method, params}));
  });
}

function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

/** A type-0 transfer of 1 wei from cow2 to RECIPIENT, signed here, with cow2's next nonce. */
async function signedTransfer(): Promise<string> {
  const nonce = Number(await result(call("eth_getTransactionCount", [cow2.address, "pending"])));
  return cow2.signTransaction({type: 0, to: RECIPIENT, value: 1n, gasLimit: 21_000, gasPrice: 0n, nonce, chainId: 33});
}

/** The typed data of the document's own example of eth_signTypedData_v4 (a dev account signs it). */
function typedData(): unknown {
  const example = EXECUTION_API.methods.find((m) => m.name === "eth_signTypedData_v4")?.examples?.[0];
  const data = example?.params.find((p) => p.name === "TypedData")?.value;
  if (data === undefined) throw new Error("the document has no example of eth_signTypedData_v4's typed data");
  return data;
}
