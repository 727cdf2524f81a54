// End-to-end: the real `xchain verify-headers --rpc` (built bin, a child process) against a fake JSON-RPC node on
// loopback serving the repository's real blocks: the 1,060 consecutive mainnet headers as rskj's block objects,
// and the two real testnet block objects rskj answered. Also the file mode's stdin and its 18-field message.
import {mkdtempSync, readFileSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {getChainspec} from "@xchain/chainspec";
import {BlockHeader} from "@xchain/primitives";
import {FakeBlockEndpoint, readJsonVector, readMainnetHeaderLines, rskjBlockJson, vectorPath} from "@xchain/test-utils";
import {bytesToHex, hexToBytes} from "@xchain/utils";
import {afterAll, beforeAll, beforeEach, describe, expect, it} from "vitest";
import {NO_INTERVAL_BLOCKS} from "./support/devClients.ts";
import {rpc} from "./support/jsonRpc.ts";
import {runCliWithInput, runCli as xchain} from "./support/runCli.ts";
import {startNode} from "./support/xchainProcess.ts";

const FIRST = 4479841;
const LAST = 4480900;
const headerLines = readMainnetHeaderLines();
const headers = headerLines.map((line) => BlockHeader.decode(hexToBytes(line), getChainspec("mainnet")));
const FDD_NOTE =
  "fork-detection data not checked on 449 valid blocks: the 449 ancestors it is computed from are not all in " +
  `the input (it starts at ${FIRST}; start 449 blocks earlier to check every block)`;

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), "xchain-verify-rpc-")), name);
}

describe("xchain verify-headers --rpc", () => {
  const node = new FakeBlockEndpoint();
  let url = "";
  const verify = (...args: string[]) => xchain("verify-headers", "--network", "mainnet", "--rpc", url, ...args);

  beforeAll(async () => {
    url = await node.start();
  });
  afterAll(() => node.stop());
  beforeEach(() => {
    node.blocks.clear();
    for (const header of headers) node.blocks.set(header.number, rskjBlockJson(header));
    node.reset();
  });

  it("verifies the 1,060 real mainnet blocks, saying where fork-detection data could not be checked", async () => {
    const r = await verify("--from", String(FIRST), "--to", String(LAST), "--rate", "0");
    expect(r.stdout.trim().split("\n")).toEqual([FDD_NOTE, "1060 valid, 0 invalid"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/verify-headers: block 4480900, 1060\/1060 \(100%\), \d+ blocks\/s, 0 invalid\n$/);
    // Batched: 50 blocks a request by default, each block asked for once.
    expect(node.requested).toHaveLength(1060);
  });

  it("verifies the real testnet blocks rskj answered (blocks 3 and 64,746)", async () => {
    const vector = readJsonVector<{blocks: {number: number; rpcJson: unknown}[]}>("testnet-blocks-from-rpc-json.json");
    for (const block of vector.blocks) node.blocks.set(block.number, block.rpcJson);
    for (const {number} of vector.blocks) {
      const r = await xchain(
        "verify-headers",
        "--network",
        "testnet",
        "--rpc",
        url,
        "--from",
        `${number}`,
        "--to",
        `${number}`,
      );
      // Block 64,746's fork-detection data reads 449 ancestors the endpoint does not have: the note says so.
      const out = r.stdout.trim().split("\n");
      expect(out.at(-1)).toBe("1 valid, 0 invalid");
      expect(out).toHaveLength(number < 449 ? 1 : 2);
      expect(r.code).toBe(0);
    }
  });

  it("rejects a block with one field changed, naming block, field set and hash, and orphans its child", async () => {
    const tampered = {...(node.blocks.get(4480340) as {hash: string}), gasUsed: "0x1234"};
    node.blocks.set(4480340, tampered);
    const r = await verify("--from", String(FIRST), "--to", String(LAST), "--rate", "0");
    const out = r.stdout.trim().split("\n");
    expect(out[0]).toBe(
      `block 4480340 ${tampered.hash} BLOCK_JSON_HASH_MISMATCH: the header rebuilt from the JSON fields (16 base ` +
        "fields with uncleCount = uncles.length, empty ummRoot, bitcoinMergedMiningHeader; 18 fields hashed) hashes " +
        `to ${out[0]?.match(/hashes to (0x[0-9a-f]{64})/)?.[1]}, not to the block's hash ${tampered.hash}: a field ` +
        "was altered, or the header has fields the JSON does not show (a non-empty ummRoot; RSKIP-351 version 1/2 " +
        "headers, testnet from 7,139,600)",
    );
    expect(out[1]).toMatch(/^block 4480341 0x[0-9a-f]{64} HEADER_PARENT_UNAVAILABLE: /);
    expect(out.at(-1)).toBe("1058 valid, 2 invalid");
    expect(r.code).toBe(1);
  });

  it("resumes from its state file after an interrupted run, with the result of an uninterrupted one", async () => {
    const state = tempFile("state.json");
    const range = ["--from", String(FIRST), "--to", String(LAST), "--rate", "0", "--state", state];
    node.head = 4480600;
    const first = await verify(...range);
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/block 4480601: the node answered null \(it has no block at that height\)/);
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({next: 4480601, valid: 760, invalid: 0});

    // Without --resume the earlier run's file is not overwritten.
    const again = await verify(...range);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/state\.json exists: pass --resume to continue that run/);

    node.head = Number.POSITIVE_INFINITY;
    node.requested.length = 0;
    const resumed = await verify(...range, "--resume");
    expect(resumed.stdout.trim().split("\n")).toEqual([FDD_NOTE, "1060 valid, 0 invalid"]);
    expect(resumed.code).toBe(0);
    // It re-read the 449 blocks before the resume point (their rules' ancestors), then the rest once.
    expect(node.requested[0]).toBe(4480601 - 449);
    expect(node.requested).toHaveLength(449 + 300);
    expect(JSON.parse(readFileSync(state, "utf8"))).toMatchObject({next: LAST + 1, valid: 1060});
  });

  it("refuses to resume over a chain that changed since the state was saved", async () => {
    const state = tempFile("state.json");
    const range = ["--from", String(FIRST), "--to", String(LAST), "--rate", "0", "--state", state];
    node.head = 4480000;
    expect((await verify(...range)).code).toBe(2);
    node.head = Number.POSITIVE_INFINITY;
    const original = node.blocks.get(4480000) as Record<string, unknown>;
    node.blocks.set(4480000, {...original, hash: `0x${"ab".repeat(32)}`});
    const r = await verify(...range, "--resume");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `block 4480000 is 0x(ab){32} on ${url}, but the earlier run verified ${original.hash}: the chain changed`,
      ),
    );
  });

  it("retries transient failures (HTTP 503) with backoff, and gives up with a precise error after --retries", async () => {
    node.failNext = 2;
    const ok = await verify("--from", String(FIRST), "--to", String(FIRST + 99), "--rate", "0");
    expect(ok.stdout.trim().split("\n").at(-1)).toBe("100 valid, 0 invalid");
    expect(ok.code).toBe(0);
    node.failNext = 5;
    const r = await verify("--from", String(FIRST), "--to", String(FIRST + 9), "--retries", "1");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`xchain: ${url}: blocks ${FIRST} to ${FIRST + 9} failed 2 times (HTTP 503)`);
  });

  it("reports an answer that is not a batch of block answers precisely", async () => {
    node.rawBody = "<html>bad gateway</html>";
    const r = await verify("--from", String(FIRST), "--to", String(FIRST + 1));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `xchain: ${url}: the answer to the batch for blocks ${FIRST} to ${FIRST + 1} is not JSON: "<html>bad gateway</html>"`,
    );
  });

  it("refuses --rpc without a range, a range upside down, and a URL that is not http(s)", async () => {
    const notHttp = await xchain(
      "verify-headers",
      "--network",
      "mainnet",
      "--rpc",
      "127.0.0.1:4444",
      "--from",
      "1",
      "--to",
      "2",
    );
    expect(notHttp.stderr).toMatch(/--rpc 127\.0\.0\.1:4444: expected an http:\/\/ or https:\/\/ URL/);
    expect(notHttp.code).toBe(2);
    expect((await verify("--from", "5")).stderr).toMatch(/--rpc needs --from and --to/);
    expect((await verify("--from", "5", "--to", "4")).stderr).toMatch(/--to 4 is below --from 5/);
  });
});

describe("xchain verify-headers --rpc against a real xchain node", () => {
  it("verifies the blocks a regtest node mined, from its own eth_getBlockByNumber", async () => {
    const node = await startNode(NO_INTERVAL_BLOCKS);
    try {
      for (let i = 0; i < 5; i++) await rpc(node.httpUrl, "evm_mine", []);
      const r = await xchain(
        "verify-headers",
        "--network",
        "regtest",
        "--rpc",
        node.httpUrl,
        "--from",
        "1",
        "--to",
        "5",
      );
      expect(r.stdout.trim()).toBe("5 valid, 0 invalid");
      expect(r.code).toBe(0);
    } finally {
      await node.stop();
    }
  });
});

describe("xchain verify-headers FILE", () => {
  it("reads the headers from stdin with -", async () => {
    const r = await runCliWithInput(
      readFileSync(vectorPath("mainnet-headers-4479841-4480900.txt"), "utf8"),
      "verify-headers",
      "--network",
      "mainnet",
      "-",
    );
    expect(r.stdout.trim().split("\n")).toEqual([FDD_NOTE, "1060 valid, 0 invalid"]);
    expect(r.code).toBe(0);
  });

  it("says what an 18-field header is (the raw header RPC's hash encoding) and to use --rpc", async () => {
    const file = tempFile("raw-headers.txt");
    writeFileSync(file, `0x${bytesToHex(headers[0]!.encodeForHash())}\n`);
    const r = await xchain("verify-headers", "--network", "mainnet", file);
    expect(r.stdout.trim().split("\n")[0]).toBe(
      "block ? ? HEADER_DECODE_WRONG_FIELD_COUNT: header has 18 fields; a version-0 header has 16, 17, 19 or 20: " +
        "18 is the encoding the block hash covers (base fields, ummRoot, Bitcoin header), which " +
        "xchain_getRawBlockHeaderByNumber/ByHash and rskj's rsk_getRawBlockHeaderBy* return; it lacks the " +
        "merged-mining merkle proof and coinbase that proof of work needs. Verify a node's blocks with " +
        "`xchain verify-headers --rpc URL --from N --to M` instead (line 1)",
    );
    expect(r.code).toBe(1);
  });
});
