export * from "./errors.ts";
export * from "./genesis.ts";
export * from "./nodeCache.ts";
export * from "./stateDatabase.ts";
export {EMPTY_TRIE_ROOT} from "./trie.ts";
export * from "./types.ts";
