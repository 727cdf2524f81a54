export * from "./vectors.ts";
