// End-to-end: `xchain start` refuses a risky configuration with exit code 2 and a message naming
// the setting and the key that accepts it; with that key it starts and logs a warning.
import {afterAll, describe, expect, it} from "vitest";
import {rpc} from "../support/jsonRpc.ts";
import {type RunningNode, refusedStart, startNode} from "../support/xchainProcess.ts";

const running: RunningNode[] = [];

afterAll(async () => {
  await Promise.all(running.filter((n) => n.process.exitCode === null).map((n) => n.stop("SIGKILL")));
});

describe("risky configurations", () => {
  it("refuses the dev wallet and dev namespaces on a listener beyond loopback (exit 2)", async () => {
    const exit = await refusedStart(["--rpc.http.host", "0.0.0.0"]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(
      "xchain: refusing to start: the dev wallet (wallet.enabled) and the keystore (wallet.keystore) and evm_*",
    );
    expect(exit.stderr).toContain('served on rpc.http.host = "0.0.0.0", beyond loopback');
    expect(exit.stderr).toContain(
      "set unsafe.allowDevControlsOnPublicRpc = true (--unsafe.allowDevControlsOnPublicRpc)",
    );
  });

  it('refuses the dev wallet with CORS "*", and dev controls on mainnet (exit 2)', async () => {
    const cors = await refusedStart(["--rpc.corsOrigins", "*"]);
    expect(cors.code).toBe(2);
    expect(cors.stderr).toContain(
      'the dev wallet (wallet.enabled) and the keystore (wallet.keystore) with rpc.corsOrigins = ["*"]',
    );
    expect(cors.stderr).toContain("unsafe.allowWalletWithAnyOrigin");
    const mainnet = await refusedStart(["--network", "mainnet", "--rpc.modules.personal.enabled", "true"]);
    expect(mainnet.code).toBe(2);
    expect(mainnet.stderr).toContain("personal_* (rpc.modules.personal) on mainnet");
    expect(mainnet.stderr).toContain("unsafe.allowDevControlsOnPublicNetwork");
  });

  it("starts when the unsafe key accepts the risk, and logs a warning naming it", async () => {
    const node = await startNode(["--rpc.http.host", "0.0.0.0", "--unsafe.allowDevControlsOnPublicRpc"]);
    running.push(node);
    const warning = node.logs.find((l) => l.acceptedBy === "unsafe.allowDevControlsOnPublicRpc");
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toMatch(
      /^unsafe configuration accepted by unsafe\.allowDevControlsOnPublicRpc: the dev wallet .* served on rpc\.http\.host = "0\.0\.0\.0"/,
    );
    const port = new URL(node.httpUrl).port;
    expect(await rpc(`http://127.0.0.1:${port}`, "eth_chainId")).toBe("0x21");
    expect((await node.stop()).code).toBe(0);
  });
});
