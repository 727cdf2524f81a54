export {StateError, StateErrorCode, type StateErrorType} from "./errors.ts";
export {buildGenesisState} from "./genesis.ts";
export type {NodeCacheStats} from "./nodeCache.ts";
export {defaultStateOptions, type StateOptions} from "./options.ts";
export {OverlayStateManager} from "./overlayStateManager.ts";
export {StateDatabase, type StateModules} from "./stateDatabase.ts";
export {EMPTY_TRIE_ROOT} from "./trie.ts";
export type {AccountState, GenesisAccount, StateCommit, StateReader, StateSession, StateSource} from "./types.ts";
export {type StateDamage, type StateVerification, verifyState} from "./verifyState.ts";
