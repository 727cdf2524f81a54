/**
 * Hints for the flags people bring from anvil, Hardhat and geth: `xchain start --port 8545` is
 * still refused as an unknown option, with a line naming xchain's equivalent (or saying there is
 * none, and what to do instead), since commander's "did you mean" finds nothing that far away.
 */
import type {Command} from "commander";

/** The hints by flag; docs/config.md ("Coming from anvil, Hardhat or geth") lists them. */
const FOREIGN_FLAG_HINTS: Readonly<Record<string, string>> = {
  "--port":
    "anvil's and Hardhat's --port is --rpc.http.port (WebSocket has its own, --rpc.ws.port); geth's is --p2p.port",
  "-p": "anvil's -p is --rpc.http.port (WebSocket has its own, --rpc.ws.port)",
  "--host": "anvil's --host is --rpc.http.host (and --rpc.ws.host)",
  "--hostname": "Hardhat's --hostname is --rpc.http.host (and --rpc.ws.host)",
  "--chain-id":
    "the chain id is the network's (regtest 33); for another, --network custom --genesis-file <file> with config.chainId",
  "--block-time": "anvil's --block-time <seconds> is --miner.blockTimeMs <milliseconds> (regtest mines one every 1000)",
  "-b": "anvil's -b <seconds> is --miner.blockTimeMs <milliseconds>",
  "--no-mining": "anvil's --no-mining is --miner.autoMine false --miner.blockTimeMs 0 (evm_mine still mines)",
  "--accounts": "the dev accounts are regtest's ten fixed cow accounts (--wallet.enabled false hides them)",
  "-a": "anvil's -a (accounts): the dev accounts are regtest's ten fixed cow accounts",
  "--balance":
    "the dev accounts' balances come with the genesis: anvil_setBalance changes one, a --genesis-file alloc sets any",
  "--mnemonic":
    "no mnemonic: the dev accounts are regtest's cow accounts; fund your own in a --genesis-file alloc and import them with personal_importRawKey",
  "-m": "anvil's -m (mnemonic): no mnemonic; the dev accounts are regtest's cow accounts",
  "--fork-url": "anvil's --fork-url <url> is --fork.url <url> (docs/forking.md §4)",
  "-f": "anvil's -f <url> (fork url) is --fork.url <url>",
  "--fork": "Hardhat's --fork <url> is --fork.url <url>",
  "--fork-block-number": "anvil's --fork-block-number <n> is --fork.block <n> (a block hash too)",
  "--fork-chain-id": "anvil's --fork-chain-id <id> is --fork.chainId <id>",
  "--init": "anvil's --init <genesis.json> is --network custom --genesis-file <genesis.json>",
  "--gas-limit":
    "the block gas limit is --miner.targetGasLimit <gas> (it moves there within Rootstock's per-block band)",
  "--gas-price": "the miner's minimum gas price is --miner.minGasPriceInWei <wei>",
  "--base-fee": "Rootstock has no base fee: --miner.minGasPriceInWei <wei> sets the floor",
  "--state":
    "the chain is kept in --datadir (--dev.ephemeral for a throw-away one); anvil_dumpState and anvil_loadState over RPC",
  "--dump-state": "anvil_dumpState over RPC dumps the state; the chain is kept in --datadir anyway",
  "--load-state": "anvil_loadState over RPC loads a state anvil dumped",
  "--silent": "--log.level warn (or silent)",
  "--auto-impersonate": "call anvil_autoImpersonateAccount true over RPC",
  "--allow-origin": "--rpc.corsOrigins <origins> (and --rpc.ws.origins)",
  "--http.port": "geth's --http.port is --rpc.http.port",
  "--http.addr": "geth's --http.addr is --rpc.http.host",
  "--ws.port": "geth's --ws.port is --rpc.ws.port",
  "--ws.addr": "geth's --ws.addr is --rpc.ws.host",
  "--http.corsdomain": "geth's --http.corsdomain is --rpc.corsOrigins",
  "--http.api": "geth's --http.api is one --rpc.modules.<namespace>.enabled per namespace",
  "--bootnodes": "geth's --bootnodes is --p2p.bootnodes (libp2p multiaddrs with /p2p/<peer id>)",
  "--maxpeers": "geth's --maxpeers is --p2p.maxPeers",
  "--networkid": "the network id is the network's: --network <mainnet|testnet|regtest|custom>",
  "--mine": "geth's --mine is --miner.enabled",
  "--miner.etherbase": "geth's --miner.etherbase is --miner.coinbase",
  "--verbosity": "geth's --verbosity is --log.level <level>",
};

/** The hint for an unknown option `flag` (`--port` or `--port=8545`), if it is a known foreign one. */
export function foreignFlagHint(flag: string): string | undefined {
  const name = flag.split("=")[0] as string;
  return Object.hasOwn(FOREIGN_FLAG_HINTS, name) ? FOREIGN_FLAG_HINTS[name] : undefined;
}

/** Every foreign flag with a hint (for the docs check). */
export const FOREIGN_FLAGS_WITH_HINTS: readonly string[] = Object.keys(FOREIGN_FLAG_HINTS);

const UNKNOWN_OPTION = /^error: unknown option '([^']+)'/;

/**
 * Makes `command` follow commander's "unknown option" error with a `hint:` line for a foreign flag,
 * `where` appended (commander writes every error through `outputError`; the line pointing at
 * --help comes after).
 */
export function hintForeignFlags(command: Command, where = ""): Command {
  return command.configureOutput({
    outputError: (text, write) => {
      const flag = UNKNOWN_OPTION.exec(text)?.[1];
      const hint = flag === undefined ? undefined : foreignFlagHint(flag);
      if (hint === undefined) return write(text);
      // commander's guess by spelling (geth's --http.port: "did you mean --p2p.port?") gives way to the hint.
      write(`${text.replace(/\s*\(Did you mean [^)]*\)/, "").trimEnd()}\nhint: ${hint}${where}\n`);
    },
  });
}
