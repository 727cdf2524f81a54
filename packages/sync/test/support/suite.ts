/**
 * The set-up every sync test file shares: the fixture's branches built once, and nodes created on
 * a hub with blocks imported, all closed after each test.
 */
import type {Block} from "@xchain/primitives";
import {afterEach, beforeAll} from "vitest";
import type {FakeHub} from "./fakeNetwork.ts";
import {type Fixture, fixture} from "./fixture.ts";
import {TestNode} from "./testNode.ts";

export interface SyncSuite {
  /** The fixture (available from the tests on). */
  readonly f: Fixture;
  /** A node `id` on `hub` holding `blocks`. */
  node(hub: FakeHub, id: string, blocks?: readonly Block[]): Promise<TestNode>;
  /** Closes `node` after the test, as the nodes `node` creates. */
  track(node: TestNode): TestNode;
}

/** Registers the file's hooks and returns its fixture and node factory. */
export function syncSuite(): SyncSuite {
  let loaded: Fixture | undefined;
  const nodes: TestNode[] = [];
  beforeAll(async () => {
    loaded = await fixture();
  });
  afterEach(async () => {
    for (const node of nodes.splice(0)) await node.close();
  });
  return {
    get f(): Fixture {
      if (!loaded) throw new Error("the fixture is built in beforeAll");
      return loaded;
    },
    track(node) {
      nodes.push(node);
      return node;
    },
    async node(hub, id, blocks = []) {
      const created = await TestNode.create(hub, id);
      await created.importBlocks(blocks);
      nodes.push(created);
      return created;
    },
  };
}
