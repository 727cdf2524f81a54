/** The chainspec and genesis a node runs: a built-in network's, or a custom network's genesis file. */
import {readFile} from "node:fs/promises";
import {
  Chainspec,
  type GenesisParams,
  getChainspec,
  getGenesisParams,
  type NetworkName,
  networkNames,
  parseCustomGenesis,
  withGenesisFederationKeys,
} from "@xchain/chainspec";

/** A built-in network, or `custom` (regtest's rules with the chain id and genesis of a file). */
export type NetworkChoice = NetworkName | "custom";

/** Every value `network` accepts. */
export const NETWORK_CHOICES: readonly NetworkChoice[] = [...networkNames, "custom"];

/**
 * The rules and genesis of `network`; `genesisFile` is required for, and only for, `custom`.
 * `ignored` lists the genesis file's keys that were read and ignored (a geth file's fork schedule).
 */
export async function loadNetwork(
  network: NetworkChoice,
  genesisFile: string | undefined,
): Promise<{chainspec: Chainspec; genesis: GenesisParams; ignored: string[]}> {
  if (network !== "custom") {
    if (genesisFile !== undefined) throw new Error("a genesis file is only for network custom");
    return {chainspec: getChainspec(network), genesis: getGenesisParams(network), ignored: []};
  }
  if (genesisFile === undefined) throw new Error("network custom needs a genesis file");
  let text: string;
  try {
    text = await readFile(genesisFile, "utf8");
  } catch (e) {
    throw new Error(`cannot read the genesis file ${genesisFile}: ${(e as Error).message}`);
  }
  return parseCustomGenesis(text);
}

/**
 * `chainspec` with the genesis federation of `bridge.genesisFederationPublicKeys` when keys are
 * given (regtest and custom only; `resolveNodeOptions` has checked them), else `chainspec` itself.
 */
export function withBridgeOverride(chainspec: Chainspec, federationKeys: readonly string[]): Chainspec {
  if (federationKeys.length === 0) return chainspec;
  return new Chainspec(withGenesisFederationKeys(chainspec.params, federationKeys));
}
