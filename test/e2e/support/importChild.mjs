// Child process of the crash test: opens the chain in DIR and imports the blocks of FILE (one hex
// block per line) that are above its head, printing "ready" once open and "imported N" after each
// block. The parent kills it with SIGKILL at random moments.
import {readFileSync} from "node:fs";
import {Chain, defaultChainOptions} from "@xchain/chain";
import {getChainspec, regtestGenesis} from "@xchain/chainspec";
import {LevelStore} from "@xchain/db";
import {hexToBytes} from "@xchain/utils";

const [dir, file] = process.argv.slice(2);
const blocks = readFileSync(file, "utf8").trim().split("\n");
const store = await LevelStore.open(dir);
const chain = await Chain.open(defaultChainOptions, {
  store,
  chainspec: getChainspec("regtest"),
  genesis: regtestGenesis,
});
process.stdout.write("ready\n");
for (let n = chain.head().number + 1; n <= blocks.length; n++) {
  const result = await chain.importBlock(hexToBytes(blocks[n - 1]));
  if (result.kind !== "IMPORTED_BEST") {
    process.stderr.write(`block ${n}: ${result.kind} ${result.error?.message ?? ""}\n`);
    process.exit(1);
  }
  process.stdout.write(`imported ${n}\n`);
}
await store.close();
process.stdout.write("done\n");
