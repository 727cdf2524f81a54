export * from "./buckets.ts";
export * from "./levelStore.ts";
export * from "./memoryStore.ts";
export * from "./store.ts";
