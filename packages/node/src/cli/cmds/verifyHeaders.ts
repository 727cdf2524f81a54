/** `xchain verify-headers`: validate a file of consecutive full block headers. */
import {createReadStream} from "node:fs";
import {createInterface} from "node:readline";
import {getChainspec, type NetworkName} from "@xchain/chainspec";
import {bytesToPrefixedHex} from "@xchain/utils";
import type {Command} from "commander";
import {HeaderFileVerifier, type HeaderVerdict} from "../../verify/headerFileVerifier.ts";
import {networkOption} from "../options.ts";

/** Exit code when at least one header is invalid. */
export const EXIT_INVALID_HEADERS = 1;

/** Registers the command on the program. */
export function registerVerifyHeaders(program: Command): void {
  program
    .command("verify-headers")
    .description(
      "validate consecutive full block headers (one RLP hex string per line, oldest first): proof of work, " +
        "merged-mining proof and header rules, parent rules from the second line, fork-detection data where " +
        "the file holds the ancestors",
    )
    .addOption(networkOption())
    .argument("<file>", "file of header RLP hex strings, one per line")
    .action(async (file: string, opts: {network: NetworkName}) => {
      const invalid = await verifyHeaderFile(file, opts.network, (text) => console.log(text));
      process.exitCode = invalid === 0 ? 0 : EXIT_INVALID_HEADERS;
    });
}

/** Verifies every line of `file`, writes one line per invalid header and the summary; returns the invalid count. */
export async function verifyHeaderFile(
  file: string,
  network: NetworkName,
  write: (text: string) => void,
): Promise<number> {
  const verifier = new HeaderFileVerifier(getChainspec(network), Math.floor(Date.now() / 1000));
  const lines = createInterface({input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY});
  let valid = 0;
  let invalid = 0;
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim().length === 0) continue;
    const verdict = verifier.verifyLine(text, lineNumber);
    if (verdict.valid) {
      valid++;
    } else {
      invalid++;
      write(formatInvalid(verdict));
    }
  }
  write(`${valid} valid, ${invalid} invalid`);
  return invalid;
}

function formatInvalid(verdict: Extract<HeaderVerdict, {valid: false}>): string {
  const number = verdict.header ? String(verdict.header.number) : "?";
  const hash = verdict.header ? bytesToPrefixedHex(verdict.header.hash()) : "?";
  return `block ${number} ${hash} ${verdict.code}: ${verdict.detail} (line ${verdict.line})`;
}
