// Node 20 lacks Promise.withResolvers, which libp2p and its dependencies call.
import "../packages/utils/src/polyfills.ts";
