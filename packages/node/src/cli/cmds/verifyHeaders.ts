/**
 * `xchain verify-headers`: validate a file of consecutive full block headers (`-`: stdin), or with `--rpc` the
 * blocks of a node (docs/operations.md §9).
 */
import {createReadStream} from "node:fs";
import {createInterface} from "node:readline";
import {getChainspec, type NetworkName} from "@xchain/chainspec";
import {bytesToPrefixedHex} from "@xchain/utils";
import type {Command} from "commander";
import {defaultVerifyRpcOptions} from "../../options.ts";
import type {HeaderVerdict} from "../../verify/headerFileVerifier.ts";
import type {VerifyRpcOptions} from "../../verify/rpcBlockFetcher.ts";
import {blockNumber, integer, networkOption} from "../options.ts";

/** Exit code when at least one header is invalid. */
export const EXIT_INVALID_HEADERS = 1;

/** Registers the command on the program; the verifiers (the consensus rules) load when it runs. */
export function registerVerifyHeaders(program: Command): void {
  program
    .command("verify-headers")
    .description(
      "validate consecutive full block headers (one RLP hex string per line, oldest first; `-` reads stdin), or " +
        "with --rpc the blocks --from N --to M of a node (rskj or xchain, eth_getBlockByNumber): proof of work, " +
        "merged-mining proof and header rules, parent rules from the second header, fork-detection data where " +
        "the input holds the ancestors",
    )
    .addOption(networkOption())
    .argument("[file]", "file of header RLP hex strings, one per line; - for stdin")
    .option("--rpc <url>", "verify the blocks of the node at this JSON-RPC URL instead of a file")
    .option("--from <number>", "first block to verify (with --rpc)", blockNumber)
    .option("--to <number>", "last block to verify (with --rpc)", blockNumber)
    .option("--batch-size <n>", "blocks per JSON-RPC batch request", count, defaultVerifyRpcOptions.batchSize)
    .option("--concurrency <n>", "batch requests in flight at once", count, defaultVerifyRpcOptions.concurrency)
    .option(
      "--rate <blocks/s>",
      "blocks requested per second at most; 0 for no limit",
      rate,
      defaultVerifyRpcOptions.rate,
    )
    .option("--retries <n>", "retries of a transient failure, with backoff", retries, defaultVerifyRpcOptions.retries)
    .option("--state <file>", "save progress to this file after every batch (with --rpc)")
    .option("--resume", "continue the run that --state records, after its last verified block")
    .action(async (file: string | undefined, opts: VerifyHeadersFlags, command: Command) => {
      const invalid =
        opts.rpc === undefined ? await runFileMode(file, opts, command) : await runRpcMode(file, opts, command);
      process.exitCode = invalid === 0 ? 0 : EXIT_INVALID_HEADERS;
    });
}

interface VerifyHeadersFlags {
  network: NetworkName;
  rpc?: string;
  from?: number;
  to?: number;
  batchSize: number;
  concurrency: number;
  rate: number;
  retries: number;
  state?: string;
  resume?: boolean;
}

async function runFileMode(file: string | undefined, opts: VerifyHeadersFlags, command: Command): Promise<number> {
  if (file === undefined) command.error("error: give a header file (- for stdin), or --rpc URL --from N --to M");
  for (const flag of ["from", "to", "state", "resume"] as const) {
    if (opts[flag] !== undefined) command.error(`error: --${flag} goes with --rpc`);
  }
  return verifyHeaderFile(file, opts.network, (text) => console.log(text));
}

async function runRpcMode(file: string | undefined, opts: VerifyHeadersFlags, command: Command): Promise<number> {
  if (file !== undefined) command.error("error: give either a header file or --rpc, not both");
  const url = opts.rpc as string;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    command.error(`error: --rpc ${opts.rpc}: expected an http:// or https:// URL`);
  }
  if (opts.from === undefined || opts.to === undefined) command.error("error: --rpc needs --from and --to");
  if (opts.from === 0) command.error("error: --from 0: the genesis block is not mined; start at 1");
  if (opts.to < opts.from) command.error(`error: --to ${opts.to} is below --from ${opts.from}`);
  if (opts.resume && opts.state === undefined) command.error("error: --resume needs --state <file>");
  const {verifyFromRpc} = await import("../../verify/verifyFromRpc.ts");
  const state = await verifyFromRpc({
    url,
    network: opts.network,
    chainspec: getChainspec(opts.network),
    from: opts.from,
    to: opts.to,
    rpc: {...defaultVerifyRpcOptions, ...pick(opts)},
    stateFile: opts.state,
    resume: opts.resume === true,
    write: (text) => console.log(text),
    progress: (text) => console.error(text),
    nowSeconds: Math.floor(Date.now() / 1000),
  });
  return state.invalid;
}

function pick(opts: VerifyHeadersFlags): Partial<VerifyRpcOptions> {
  return {batchSize: opts.batchSize, concurrency: opts.concurrency, rate: opts.rate, retries: opts.retries};
}

const count = (value: string) => integer(value, 1, "expected a whole number of at least 1");
const rate = (value: string) => integer(value, 0, "expected blocks per second (0 for no limit)");
const retries = (value: string) => integer(value, 0, "expected a whole number of retries");

/** Verifies every line of `file`, writes one line per invalid header and the summary; returns the invalid count. */
export async function verifyHeaderFile(
  file: string,
  network: NetworkName,
  write: (text: string) => void,
): Promise<number> {
  const [{HeaderFileVerifier}, {forkDetectionNote}] = await Promise.all([
    import("../../verify/headerFileVerifier.ts"),
    import("../../verify/verifyFromRpc.ts"),
  ]);
  const verifier = new HeaderFileVerifier(getChainspec(network), Math.floor(Date.now() / 1000));
  const input = file === "-" ? process.stdin : createReadStream(file);
  const lines = createInterface({input, crlfDelay: Number.POSITIVE_INFINITY});
  let valid = 0;
  let invalid = 0;
  let forkDetectionUnchecked = 0;
  let firstNumber: number | undefined;
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim().length === 0) continue;
    const verdict = verifier.verifyLine(text, lineNumber);
    firstNumber ??= verdict.header?.number;
    if (verdict.valid) {
      valid++;
      if (verdict.forkDetection.checked === false && verdict.forkDetection.reason === "ancestor-missing") {
        forkDetectionUnchecked++;
      }
    } else {
      invalid++;
      write(formatInvalid(verdict));
    }
  }
  if (forkDetectionUnchecked > 0) write(forkDetectionNote(forkDetectionUnchecked, firstNumber ?? "?"));
  write(`${valid} valid, ${invalid} invalid`);
  return invalid;
}

function formatInvalid(verdict: Extract<HeaderVerdict, {valid: false}>): string {
  const number = verdict.header ? String(verdict.header.number) : "?";
  const hash = verdict.header ? bytesToPrefixedHex(verdict.header.hash()) : "?";
  return `block ${number} ${hash} ${verdict.code}: ${verdict.detail} (line ${verdict.line})`;
}
