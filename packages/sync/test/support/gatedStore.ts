import {MemoryStore, type WriteBatch} from "@xchain/db";

/** A store whose writes wait while `held` (a block's import stays in progress until `release`). */
export class GatedStore extends MemoryStore {
  waiting = 0;
  private gate: Promise<void> | undefined;
  private open = (): void => undefined;

  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  release(): void {
    this.gate = undefined;
    this.open();
  }

  override async write(batch: WriteBatch): Promise<void> {
    if (this.gate) {
      this.waiting++;
      await this.gate;
    }
    await super.write(batch);
  }
}
