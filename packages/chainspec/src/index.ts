export {mainnetBridge, REGTEST_GENESIS_FEDERATION_KEYS, regtestBridge, testnetBridge} from "./bridge/networks.ts";
export {
  BridgeConfigError,
  BridgeConfigErrorCode,
  type BridgeConfigErrorType,
  chainspecWithFederationKeys,
  MAX_FEDERATION_KEYS,
  withGenesisFederationKeys,
} from "./bridge/override.ts";
export type {BridgeAuthorizer, BridgeConstants, BtcNetworkParams, GenesisFederation} from "./bridge/types.ts";
export {Chainspec, getChainspec, networkNames} from "./chainspec.ts";
export {ForkChainspec, type ForkChainspecInput, forkChainspec} from "./fork.ts";
export {customChainspec, parseCustomGenesis} from "./genesis/custom.ts";
export {GenesisError, GenesisErrorCode, type GenesisErrorType} from "./genesis/errors.ts";
export {buildGenesisHeader, GENESIS_EMPTY_TRIE_ROOT} from "./genesis/header.ts";
export {
  BRIDGE_ADDRESS,
  BRIDGE_GENESIS_BALANCE,
  COW_ACCOUNT_BALANCE,
  COW_ADDRESSES,
  GENESIS_COINBASE,
  getGenesisParams,
  regtestGenesis,
} from "./genesis/networks.ts";
export type {GenesisAllocAccount, GenesisParams} from "./genesis/types.ts";
export {regtest} from "./networks/regtest.ts";
export type {NetworkName, NetworkParams, RemascParams, Rskip} from "./types.ts";
