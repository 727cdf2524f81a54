// End-to-end: the real `xchain` CLI (built bin) as a child process on real and forged header files.
import {mkdtempSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {readMainnetHeaderLines, vectorPath} from "@xchain/test-utils";
import {describe, expect, it} from "vitest";
import {runCli as xchain} from "./support/runCli.ts";

function writeLines(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "xchain-verify-")), "headers.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** Flips the last byte of the Bitcoin header's nonce inside a full header RLP hex line. */
function forgeBitcoinNonce(line: string): string {
  // The 80-byte Bitcoin header is RLP-framed as b850 + 160 hex digits; its nonce is the last 4 bytes.
  const at = line.indexOf("b850");
  const nonceEnd = at + 4 + 160;
  const last = Number.parseInt(line.slice(nonceEnd - 2, nonceEnd), 16);
  return `${line.slice(0, nonceEnd - 2)}${((last + 1) % 256).toString(16).padStart(2, "0")}${line.slice(nonceEnd)}`;
}

describe("xchain verify-headers", () => {
  const lines = readMainnetHeaderLines();

  it("accepts the 1,060 real mainnet headers", async () => {
    const r = await xchain("verify-headers", "--network", "mainnet", vectorPath("mainnet-headers-4479841-4480900.txt"));
    // The first 449 headers' fork-detection data reads ancestors from before the file: the summary says so.
    expect(r.stdout.trim().split("\n")).toEqual([
      "fork-detection data not checked on 449 valid blocks: the 449 ancestors it is computed from are not all " +
        "in the input (it starts at 4479841; start 449 blocks earlier to check every block)",
      "1060 valid, 0 invalid",
    ]);
    expect(r.code).toBe(0);
  });

  it("rejects a forged last header with the proof-of-work code", async () => {
    const forged = [...lines.slice(0, -1), forgeBitcoinNonce(lines.at(-1)!)];
    const r = await xchain("verify-headers", "--network", "mainnet", writeLines(forged));
    const out = r.stdout.trim().split("\n");
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/^block 4480900 0x[0-9a-f]{64} MM_POW_ABOVE_TARGET: .* \(line 1060\)$/);
    expect(out[1]).toMatch(/^fork-detection data not checked on 449 valid blocks/);
    expect(out[2]).toBe("1059 valid, 1 invalid");
    expect(r.code).toBe(1);
  });

  it("reports a forged middle header and its orphaned child, then carries on", async () => {
    const forged = [...lines];
    forged[499] = forgeBitcoinNonce(forged[499]!);
    const r = await xchain("verify-headers", "--network", "mainnet", writeLines(forged));
    const out = r.stdout.trim().split("\n");
    expect(out[0]).toMatch(/^block 4480340 0x[0-9a-f]{64} MM_POW_ABOVE_TARGET: .*\(line 500\)$/);
    expect(out[1]).toMatch(/^block 4480341 0x[0-9a-f]{64} HEADER_PARENT_HASH_MISMATCH: .*\(line 501\)$/);
    expect(out.at(-1)).toBe("1058 valid, 2 invalid");
    expect(r.code).toBe(1);
  });

  it("reports malformed lines as invalid headers without crashing", async () => {
    const file = writeLines([lines[0]!, "not hex at all", "f9", lines[0]!.slice(0, 100)]);
    const r = await xchain("verify-headers", "--network", "mainnet", file);
    const out = r.stdout.trim().split("\n");
    expect(out[0]).toBe("block ? ? HEADER_DECODE_NOT_HEX: line is not a non-empty even-length hex string (line 2)");
    expect(out[1]).toMatch(/^block \? \? HEADER_DECODE_BAD_RLP: .*\(line 3\)$/);
    expect(out[2]).toMatch(/^block \? \? HEADER_DECODE_BAD_RLP: .*\(line 4\)$/);
    expect(out.at(-1)).toBe("1 valid, 3 invalid");
    expect(r.code).toBe(1);
  });

  it("fails with a message and exit code 2 on a missing file", async () => {
    const r = await xchain("verify-headers", "--network", "mainnet", "/nonexistent/headers.txt");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ENOENT/);
  });

  it("refuses an unknown network, naming the choices", async () => {
    const r = await xchain("verify-headers", "--network", "moon", "x.txt");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mainnet, testnet, regtest/);
  });

  it("prints --version and --help", async () => {
    const version = await xchain("--version");
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await xchain("--help");
    expect(help.stdout).toMatch(/verify-headers/);
    expect(help.code).toBe(0);
  });
});
