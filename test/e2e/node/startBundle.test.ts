// End-to-end: the start bundle (packages/node/bundle, built by `npm run build`; docs/performance.md §13)
// runs the node whole: the ready line says which build ran, a call runs on a call worker (a worker
// entry of the bundle, found beside it), and p2p (a chunk loaded by `import()`) listens. With
// XCHAIN_BUNDLE=0 the same command runs dist/. CI builds the bundle; a checkout that ran `tsc -b`
// after `npm run build` has a stale one, which bin/xchain.js does not use, and skips the first test.
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {freshBundle} from "../../../packages/node/src/cli/bundleEntry.ts";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, startNode, tempDataDir} from "../support/xchainProcess.ts";

const nodeDir = join(import.meta.dirname, "..", "..", "..", "packages", "node");
const bundled = freshBundle(nodeDir) !== undefined;
const running: RunningNode[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((node) => node.stop()));
});

/** The build the "JSON-RPC ready" line names. */
const buildOf = (node: RunningNode) => node.logs.find((entry) => typeof entry.startupMs === "number")?.build;

/** Creation code returning 42: PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const RETURN_42 = "0x602a60005260206000f3";

describe("the start bundle", () => {
  it.skipIf(!bundled && !process.env.CI)("runs the node: calls on a call worker, p2p from its own chunk", async () => {
    const p2p = ["--p2p.enabled", "true", "--p2p.host", "127.0.0.1", "--p2p.port", "0"];
    const node = await startNode(["--rpc.callWorkers", "1", ...p2p]);
    running.push(node);
    expect(buildOf(node)).toBe("bundle");
    expect(node.p2pAddresses.length).toBeGreaterThan(0);
    await rpc(node.httpUrl, "evm_mine");
    expect(await rpc<string>(node.httpUrl, "eth_call", [{data: RETURN_42}, "latest"])).toBe(
      `0x${"2a".padStart(64, "0")}`,
    );
    expect(Number(await rpc<string>(node.httpUrl, "eth_blockNumber"))).toBeGreaterThanOrEqual(1);
  });

  it("runs dist/ with XCHAIN_BUNDLE=0", async () => {
    const node = await startNode(["--rpc.callWorkers", "1"], tempDataDir(), [], {...process.env, XCHAIN_BUNDLE: "0"});
    running.push(node);
    expect(buildOf(node)).toBe("modules");
    expect(await rpc<string>(node.httpUrl, "eth_call", [{data: RETURN_42}, "latest"])).toBe(
      `0x${"2a".padStart(64, "0")}`,
    );
  });
});
