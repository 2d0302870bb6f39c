/**
 * Per site, the tail of a lock chain. A sync run and outbox replays take turns, so replays never
 * overlap (the queue's order holds) and a replay never lands between a run's fetch and its commit
 * (where the fresh snapshot, fetched before the change was accepted, would hide it until the next
 * sync).
 */
export class SiteLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every task taken for the site before it has settled. */
  run<T>(siteId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(siteId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.#tails.set(siteId, tail);
    void tail.then(() => {
      if (this.#tails.get(siteId) === tail) this.#tails.delete(siteId);
    });
    return next;
  }

  /** Settles once every task taken so far, for every site, has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#tails.values()]);
  }
}
