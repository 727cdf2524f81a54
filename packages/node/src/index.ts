export * from "./cli/program.ts";
export * from "./verify/headerFileVerifier.ts";
