export * from "./buckets.ts";
export * from "./levelStore.ts";
export * from "./store.ts";
