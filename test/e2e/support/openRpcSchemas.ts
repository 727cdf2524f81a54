// The ecosystem's own schemas for the conformance e2e test (docs/rpc.md §4.11): the Ethereum
// execution API's OpenRPC document as @metamask/api-specs ships it, OpenRPC's meta-schema
// (@open-rpc/meta-schema, whose JSON Schemas are @json-schema-tools/meta-schema's), and ajv
// validators of a document's methods, with each `$ref` resolved in the document it is written in.
import {createRequire} from "node:module";
import {Ajv2019, type ErrorObject, type ValidateFunction} from "ajv/dist/2019.js";
import ajvFormats from "ajv-formats";

/** A parameter or result of a method. */
export interface ContentDescriptor {
  name: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

/** One method of an OpenRPC document. */
export interface OpenRpcMethod {
  name: string;
  params: ContentDescriptor[];
  result: ContentDescriptor;
  examples?: {params: {name: string; value: unknown}[]}[];
}

/** The members of an OpenRPC document this test reads. */
export interface OpenRpcDocument {
  openrpc: string;
  methods: OpenRpcMethod[];
  components?: {schemas?: Record<string, unknown>};
}

const require = createRequire(import.meta.url);

/** A JSON Schema with its `$id`. */
type IdentifiedSchema = Record<string, unknown> & {$id: string};

// The packages' type declarations describe the documents' types only, not these values.
const {jsonSchema} = require("@json-schema-tools/meta-schema") as {jsonSchema: IdentifiedSchema};
const {openrpcDocument} = require("@open-rpc/meta-schema") as {openrpcDocument: IdentifiedSchema};

/**
 * The execution API's document (ethereum/execution-apis merged into MetaMask's wallet API). The
 * pinned 0.9.3 is the release carrying the most execution-api methods: later ones filter out
 * those MetaMask does not forward (`eth_getBlockReceipts`, `eth_maxPriorityFeePerGas`, `eth_blobBaseFee`).
 */
export const EXECUTION_API: OpenRpcDocument = require("@metamask/api-specs/dist/build/openrpc.json");

/** The base URI the execution API's `#/components/schemas/...` references resolve against. */
const EXECUTION_API_ID = "https://metamask.github.io/api-specs/0.9.3/openrpc.json";

/** The same document as shipped, without `CORRECTIONS`. */
const SHIPPED_ID = "https://metamask.github.io/api-specs/0.9.3/openrpc.shipped.json";

/**
 * Where xchain's `rpc.discover` says its result's schema is (packages/rpc/src/modules/rpc.ts): the
 * meta-schema's source in its repository, the same document as the pinned package's.
 */
const NODE_META_SCHEMA_REF = "https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json";

/**
 * A fault of the pinned document that refuses answers geth itself gives, corrected for the test;
 * `witness` is such an answer, which the shipped schema refuses and the corrected one accepts (the
 * test checks both, so that a correction goes when a newer document no longer needs it).
 */
export interface Correction {
  schema: string;
  fault: string;
  witness: unknown;
  correct(schema: Record<string, unknown>): Record<string, unknown>;
}

/** The corrections of the pinned document (docs/rpc.md §4.11). */
export const CORRECTIONS: readonly Correction[] = [
  {
    schema: "TransactionInfo",
    fault:
      "`unevaluatedProperties: false` is written inside `allOf[0]`, where it sees only that part's five members, " +
      "so every transaction is refused; it is moved to the schema itself",
    // execution-apis tests/eth_getTransactionByHash/get-legacy-tx.io, geth's answer.
    witness: {
      blockHash: "0x7e5d03caac4eb2b613ae9c919ef3afcc8ed0e384f31ee746381d3c8739475d2a",
      blockNumber: "0x4",
      from: "0x7435ed30a8b4aeb0877cef0c6e8cffe834eb865f",
      gas: "0x5208",
      gasPrice: "0x23237dee",
      hash: "0x3f38cdc805c02e152bfed34471a3a13a786fed436b3aec0c3eca35d23e2cdd2c",
      input: "0x",
      nonce: "0xc",
      to: "0x4dde844b71bcdf95512fb4dc94e84fb67b512ed8",
      transactionIndex: "0x0",
      value: "0x1",
      type: "0x0",
      chainId: "0xc72dd9d5e883e",
      v: "0x18e5bb3abd10a0",
      r: "0x3d61f5d7e93eecd0669a31eb640ab3349e9e5868a44c2be1337c90a893b51990",
      s: "0xc55f44ba123af37d0e73ed75e578647c3f473805349936f64ea902ea9e03bc7",
    },
    correct(schema) {
      const [contextual, ...rest] = schema.allOf as Record<string, unknown>[];
      const {unevaluatedProperties, ...members} = contextual as Record<string, unknown>;
      return {...schema, unevaluatedProperties, allOf: [members, ...rest]};
    },
  },
  {
    schema: "FilterResults",
    fault:
      "a `oneOf` of an array of hashes and an array of logs: an empty array (no changes, no logs) matches both, " +
      "so it is refused; the corrected schema is an `anyOf`",
    witness: [],
    correct({oneOf, ...schema}) {
      return {...schema, anyOf: oneOf};
    },
  },
];

/** The document with `CORRECTIONS` applied. */
function corrected(document: OpenRpcDocument): OpenRpcDocument {
  const schemas = {...document.components?.schemas};
  for (const c of CORRECTIONS) schemas[c.schema] = c.correct(schemas[c.schema] as Record<string, unknown>);
  return {...document, components: {...document.components, schemas}};
}

/** The validators of one method: each parameter's, and the result's errors (described, [] if valid). */
export interface MethodValidators {
  params: ValidateFunction[];
  resultErrors(value: unknown): string[];
}

/** Validators for the schemas of the execution API, of OpenRPC documents and of other documents. */
export class SchemaValidators {
  // Draft 2019-09: the execution API uses `unevaluatedProperties`; the draft-07 keywords of the
  // meta-schema (`definitions`, `additionalItems`) are still understood. Not strict: a document's
  // wrapper (`methods`, `components`) is not a schema, and third-party schemas carry extra keywords.
  private readonly ajv = new Ajv2019({allErrors: true, strict: false});
  private readonly documents = new Map<string, OpenRpcDocument>();

  constructor() {
    ajvFormats.default(this.ajv);
    // OpenRPC's meta-schema refers to its JSON Schema as `https://meta.json-schema.tools`, whose
    // `$id` ends with a slash: both names are given.
    this.ajv.addMetaSchema(jsonSchema);
    this.ajv.addMetaSchema({...jsonSchema, $id: jsonSchema.$id.replace(/\/$/, "")});
    this.ajv.addSchema(openrpcDocument);
    this.ajv.addSchema({...openrpcDocument, $id: NODE_META_SCHEMA_REF});
    this.addDocument(EXECUTION_API_ID, corrected(EXECUTION_API));
    this.addDocument(SHIPPED_ID, EXECUTION_API);
  }

  /** Registers `document` under `id`: its methods' schemas' local `$ref`s resolve in it. */
  addDocument(id: string, document: OpenRpcDocument): void {
    this.ajv.addSchema({$id: id, methods: document.methods, components: document.components ?? {}});
    this.documents.set(id, document);
  }

  /** The validators of `name` in the document registered as `id` (the corrected execution API by default). */
  method(name: string, id = EXECUTION_API_ID): MethodValidators {
    const document = this.documents.get(id);
    const index = document?.methods.findIndex((m) => m.name === name) ?? -1;
    if (!document || index < 0) throw new Error(`${name} is not in ${id}`);
    const at = (pointer: string) => this.ajv.compile({$ref: `${id}#${pointer}`});
    const params = document.methods[index]!.params.map((_, i) => at(`/methods/${index}/params/${i}/schema`));
    const result = `/methods/${index}/result/schema`;
    return {params, resultErrors: (value) => describeErrors(this.errorsAt(document, id, result, value))};
  }

  /** Whether `value` is valid by the schema `name` of the execution API, corrected or as shipped. */
  isValid(name: string, value: unknown, shipped: boolean): boolean {
    return this.ajv.compile({$ref: `${shipped ? SHIPPED_ID : EXECUTION_API_ID}#/components/schemas/${name}`})(value);
  }

  /** The errors of `document` against OpenRPC's meta-schema, described ([] when it is valid). */
  openRpcErrors(document: unknown): string[] {
    const validate = this.ajv.getSchema(openrpcDocument.$id) as ValidateFunction;
    return validate(document) ? [] : describeErrors(validate.errors ?? []);
  }

  /**
   * The errors of `value` by the schema at `pointer` of `document`. When that schema (through its
   * `$ref`s) is a `oneOf` or `anyOf` that `value` fails, only the closest alternative's errors are
   * given: among those of the value's JSON type (an object is not described against the `null` of
   * "not found"), the one with the fewest.
   */
  private errorsAt(document: OpenRpcDocument, id: string, pointer: string, value: unknown): ErrorObject[] {
    const validate = this.ajv.compile({$ref: `${id}#${pointer}`});
    if (validate(value)) return [];
    const own = validate.errors ?? [];
    const [at, schema] = followRefs(document, pointer);
    const keyword = schema.oneOf ? "oneOf" : schema.anyOf ? "anyOf" : undefined;
    if (!keyword) return own;
    const each = (schema[keyword] as unknown[]).map((_, i) =>
      this.errorsAt(document, id, `${at}/${keyword}/${i}`, value),
    );
    const ofItsType = each.filter((errors) => !errors.some((e) => e.instancePath === "" && e.keyword === "type"));
    const closest = (ofItsType.length > 0 ? ofItsType : each).sort((a, b) => a.length - b.length)[0] ?? [];
    // A `oneOf` matched by more than one alternative has no closest one: its own error says so.
    return closest.length > 0 ? closest : own;
  }
}

/** The schema at `pointer` in `document` and its pointer, after following local `$ref`s. */
function followRefs(document: OpenRpcDocument, pointer: string): [string, Record<string, unknown>] {
  let at = pointer;
  for (;;) {
    const schema = at
      .split("/")
      .slice(1)
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], document) as Record<string, unknown>;
    const ref = schema?.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return [at, schema ?? {}];
    at = ref.slice(1);
  }
}

/** ajv's errors as short lines, `<path>: <message>`, naming the member an `additionalProperties` error is about. */
export function describeErrors(errors: readonly ErrorObject[]): string[] {
  return errors.map((e) => {
    const member = e.params.additionalProperty ?? e.params.unevaluatedProperty;
    return `${e.instancePath || "/"}: ${e.message ?? e.keyword}${member === undefined ? "" : ` (${String(member)})`}`;
  });
}
