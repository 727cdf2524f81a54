/**
 * A small interpreter of rskj's DSL test files (`rskj-core/src/test/resources/dsl`): the commands
 * the gas fixtures use. Account `name` has private key keccak256(utf8(name)) as in rskj's
 * `AccountBuilder`, so contracts land at rskj's addresses.
 */
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {generateAddress} from "@ethereumjs/util";
import {getChainspec} from "@xchain/chainspec";
import {publicKeyToAddress, Transaction} from "@xchain/primitives";
import {vectorsDir} from "@xchain/test-utils";
import {bigIntToBytes, hexToBytes, keccak256, publicKeyOf, utf8ToBytes} from "@xchain/utils";
import type {TransactionOutcome} from "../../src/index.ts";
import {type TestBlock, TestChain} from "./chain.ts";

/** A DSL account. */
export interface DslAccount {
  key: Uint8Array;
  address: Uint8Array;
}

/** The chain id the fixtures are signed with (regtest); addresses do not depend on it. */
export const DSL_CHAIN_ID = 33;

export function dslAccount(name: string): DslAccount {
  const key = keccak256(utf8ToBytes(name));
  return {key, address: publicKeyToAddress(publicKeyOf(key))};
}

/** The text of a fixture named as in rsk-gas-vectors.json (`dsl/…/x.txt`). */
export function readFixture(fixture: string): string {
  return readFileSync(join(vectorsDir, "rskj-gas-fixtures", fixture.replaceAll("/", "__")), "utf8");
}

/** The result of replaying a fixture. */
export interface DslReplay {
  chain: TestChain;
  accounts: Map<string, DslAccount>;
  transactions: Map<string, Transaction>;
  /** The contract address each creation transaction deploys (sender + nonce). */
  contracts: Map<string, Uint8Array>;
  outcomes: Map<string, TransactionOutcome>;
}

type Fields = Map<string, string[]>;

/** Parses into commands with their indented fields; drops comments and `comment … end` blocks. */
function parse(text: string): {command: string; args: string[]; fields: Fields}[] {
  const commands: {command: string; args: string[]; fields: Fields}[] = [];
  let inComment = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trimEnd();
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (inComment) {
      inComment = words[0] !== "end";
      continue;
    }
    if (words.length === 0) continue;
    if (words[0] === "comment") {
      inComment = true;
      continue;
    }
    const last = commands[commands.length - 1];
    if (/^\s/.test(line) && last) {
      if (words[0] !== "build") last.fields.set(words[0] as string, words.slice(1));
    } else {
      commands.push({command: words[0] as string, args: words.slice(1), fields: new Map()});
    }
  }
  return commands;
}

/** Replays `text`, stopping after the block numbered `untilBlock` is connected (all blocks by default). */
export async function replayDsl(text: string, untilBlock = Number.POSITIVE_INFINITY): Promise<DslReplay> {
  const commands = parse(text);
  const accounts = new Map<string, DslAccount>();
  for (const {command, args} of commands) {
    if (command === "account_new") accounts.set(args[0] as string, dslAccount(args[0] as string));
  }
  const balances = commands
    .filter((c) => c.command === "account_new")
    .map((c) => ({
      address: (accounts.get(c.args[0] as string) as DslAccount).address,
      balance: BigInt(c.args[1] as string),
    }));
  const chain = await TestChain.create(getChainspec("regtest"), balances);
  const replay: DslReplay = {chain, accounts, transactions: new Map(), contracts: new Map(), outcomes: new Map()};
  const built = new Map<string, {parent: string; gasLimit?: bigint; transactions: string[]}>();
  const connected = new Map<string, TestBlock>([["g00", chain.head]]);
  for (const {command, args, fields} of commands) {
    const one = (name: string) => fields.get(name)?.[0];
    if (command === "transaction_build") {
      const sender = accounts.get(one("sender") as string) as DslAccount;
      const nonce = BigInt(one("nonce") ?? "0");
      const receiver = one("receiverAddress");
      const contract = one("contract");
      let to: Uint8Array | undefined;
      if (contract !== undefined) to = replay.contracts.get(contract);
      else if (receiver !== undefined && receiver !== "00") to = hexToBytes(receiver.padStart(40, "0"));
      const tx = Transaction.sign(
        {
          nonce,
          gasPrice: BigInt(one("gasPrice") ?? "1"),
          gasLimit: BigInt(one("gas") ?? "21000"),
          to,
          value: BigInt(one("value") ?? "0"),
          data: hexToBytes(one("data") ?? ""),
        },
        sender.key,
        DSL_CHAIN_ID,
      );
      replay.transactions.set(args[0] as string, tx);
      if (to === undefined)
        replay.contracts.set(args[0] as string, generateAddress(sender.address, bigIntToBytes(nonce)));
    } else if (command === "block_build") {
      const gasLimit = one("gasLimit");
      built.set(args[0] as string, {
        parent: one("parent") as string,
        ...(gasLimit === undefined ? {} : {gasLimit: BigInt(gasLimit)}),
        transactions: fields.get("transactions") ?? [],
      });
    } else if (command === "block_connect") {
      for (const name of args) {
        const block = built.get(name) as {parent: string; gasLimit?: bigint; transactions: string[]};
        const parent = connected.get(block.parent) as TestBlock;
        if (parent.number + 1 > untilBlock) return replay;
        const txs = block.transactions.map((t) => replay.transactions.get(t) as Transaction);
        const result = await chain.execute(txs, {gasLimit: block.gasLimit ?? 6_800_000n}, parent);
        connected.set(name, result);
        block.transactions.forEach((t, i) => {
          replay.outcomes.set(t, result.result?.outcomes[i] as TransactionOutcome);
        });
      }
    }
  }
  return replay;
}
