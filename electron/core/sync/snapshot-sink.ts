import { PART_NAMES, type PartName, type SiteSnapshot } from '../db/index';
import type { PagedPart, StagedText, StageTextInput, WholePart } from '../worker/worker-contract';

/**
 * Where fetched pages go as they arrive: in the app the writer worker's stage (sync/service.ts, see
 * worker/worker-contract.ts), elsewhere `memorySink` below. A call's promise is not awaited before
 * the next page is asked for (the pages are pipelined); a rejection fails the fetch.
 */
export interface SnapshotSink {
  page(part: PagedPart, nodes: readonly unknown[]): Promise<void>;
  whole(part: WholePart, value: unknown): Promise<void>;
  /**
   * The part's pages so far are dropped: it is paged again from the start (its walk did not add
   * up).
   */
  restart(part: PagedPart): Promise<void>;
  /**
   * The part was refused for a missing scope: its pages so far are dropped and its stored rows
   * kept.
   */
  drop(part: PartName): Promise<void>;
  /**
   * The answer's body, decoded, parsed and staged by the sink (the writer worker): used instead of
   * `page`/`whole` when the transport can answer with the body (`executeBody`), so this thread
   * neither parses nor copies the pages.
   */
  text?(input: Omit<StageTextInput, 'stageId'>): Promise<StagedText>;
  /**
   * Stages a page asked for ahead of its turn and kept aside (`hold`), after the pages staged
   * before it.
   */
  adopt?(holdId: number): Promise<void>;
}

export interface MemorySink extends SnapshotSink {
  /** What was delivered, as one snapshot: a part dropped, or never delivered, is left undefined. */
  snapshot(): SiteSnapshot;
}

/**
 * A sink that keeps the fetched parts in memory: what a fetch without a sink delivers to (tests,
 * the bench's fetch-only limit). It follows the writer worker's stage: pages of a part append in
 * order, a dropped part stays dropped.
 */
export function memorySink(): MemorySink {
  const parts = new Map<PartName, unknown>();
  const dropped = new Set<PartName>();
  return {
    async page(part, nodes) {
      if (dropped.has(part)) return;
      let list = parts.get(part) as unknown[] | undefined;
      if (!list) parts.set(part, (list = []));
      for (const node of nodes) list.push(node);
    },
    async whole(part, value) {
      if (!dropped.has(part)) parts.set(part, value);
    },
    async restart(part) {
      if (!dropped.has(part)) parts.delete(part);
    },
    async drop(part) {
      parts.delete(part);
      dropped.add(part);
    },
    snapshot() {
      const snapshot: Record<string, unknown> = {};
      for (const part of PART_NAMES) if (parts.has(part)) snapshot[part] = parts.get(part);
      return snapshot as SiteSnapshot;
    },
  };
}
