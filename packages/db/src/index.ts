export {Bucket, numberFromKey, numberKey} from "./buckets.ts";
export {
  DatabaseError,
  DatabaseErrorCode,
  type DatabaseErrorType,
  LevelStore,
  type LevelStoreMemory,
} from "./levelStore.ts";
export {MemoryStore} from "./memoryStore.ts";
export {type BatchOp, bucketKey, type KeyValueStore, WriteBatch} from "./store.ts";
