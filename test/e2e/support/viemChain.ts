/** viem's description of a regtest node (chain id 33) at `httpUrl`. */
import {type Chain, defineChain} from "viem";

export function regtestChain(httpUrl: string): Chain {
  return defineChain({
    id: 33,
    name: "xchain regtest",
    nativeCurrency: {name: "Regtest RBTC", symbol: "tRBTC", decimals: 18},
    rpcUrls: {default: {http: [httpUrl]}},
  });
}
