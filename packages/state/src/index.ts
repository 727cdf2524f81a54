export {StateError, StateErrorCode, type StateErrorType} from "./errors.ts";
export {buildGenesisState} from "./genesis.ts";
export type {NodeCacheStats} from "./nodeCache.ts";
export {OverlayStateManager} from "./overlayStateManager.ts";
export {DEFAULT_NODE_CACHE_BYTES, StateDatabase, type StateDatabaseOptions} from "./stateDatabase.ts";
export {EMPTY_TRIE_ROOT} from "./trie.ts";
export type {AccountState, GenesisAccount, StateCommit, StateReader, StateSession, StateSource} from "./types.ts";
