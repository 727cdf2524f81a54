export {Bucket, numberFromKey, numberKey} from "./buckets.ts";
export {DatabaseError, DatabaseErrorCode, type DatabaseErrorType} from "./errors.ts";
export {LevelStore, type LevelStoreModules, type LevelStoreOptions, type LevelStoreThreads} from "./levelStore.ts";
export {MemoryStore} from "./memoryStore.ts";
export {type BatchOp, type BucketRange, bucketKey, type KeyValueStore, WriteBatch} from "./store.ts";
