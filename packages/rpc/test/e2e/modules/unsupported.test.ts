/** The deliberately unsupported methods answer -32601 saying why, as docs/rpc.md §4.7 lists them. */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {COMPILE_REASON, FEE_MARKET_REASON} from "../../../src/modules/eth/unsupported.ts";
import {SHH_REASON} from "../../../src/modules/unsupported.ts";
import {TestNode} from "../../support/node.ts";

let node: TestNode;
beforeAll(async () => {
  node = await TestNode.start();
});
afterAll(() => node.close());

const cases: [string, string, RegExp][] = [
  ["eth_getCompilers", COMPILE_REASON, /compile with solc/],
  ["eth_compileSolidity", COMPILE_REASON, /send the bytecode/],
  ["eth_feeHistory", FEE_MARKET_REASON, /cast send --legacy/],
  ["eth_maxPriorityFeePerGas", FEE_MARKET_REASON, /`type: 0` with `gasPrice`/],
  ["shh_post", SHH_REASON, /Whisper, Ethereum's retired peer-to-peer messaging/],
];

describe("unsupported methods", () => {
  it.each(cases)("%s answers -32601 with a reason a user understands", async (name, reason, says) => {
    expect(reason).toMatch(says);
    expect(await node.error(name, [])).toEqual({
      code: -32601,
      message: `the method ${name} does not exist/is not available: ${reason}`,
    });
  });

  it("docs/rpc.md §4.7 gives the same reasons", () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "..", "docs", "rpc.md"), "utf8");
    for (const [name, reason] of cases.filter(
      ([n]) => !n.startsWith("eth_compile") && n !== "eth_maxPriorityFeePerGas",
    )) {
      expect(docs).toContain(`| \`${name}\` | unsupported | | ${reason} |`);
    }
  });
});
