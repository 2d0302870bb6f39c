import { useVirtualizer } from '@tanstack/react-virtual';
import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';

/** The element that scrolls the screen (the app's <main>); virtual lists measure against it. */
export const ScrollContext = createContext<RefObject<HTMLElement | null> | null>(null);

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  readonly estimateSize: number;
  readonly getKey: (item: T) => string;
  readonly render: (item: T, index: number) => ReactNode;
  readonly label: string;
  readonly testId?: string;
  readonly gap?: number;
  /**
   * Paged lists: called when a row within `endThreshold` rows of the last loaded one is rendered,
   * so the next page loads before the student reaches the end (useChannelPages' loadMore).
   */
  readonly onEndReached?: () => void;
  readonly endThreshold?: number;
  /** How many rows the whole list has when only some are loaded (aria-setsize). */
  readonly total?: number;
  /**
   * The key of a row to bring into view once the list is laid out (a search hit opened), once per
   * key.
   */
  readonly scrollToKey?: string;
}

/**
 * A long list rendered windowed (only what is visible, plus overscan) inside the screen's scroll
 * container, with each row measured so rows of any height work. Rows stay in a real list for
 * assistive technology.
 */
export function VirtualList<T>({
  items,
  estimateSize,
  getKey,
  render,
  label,
  testId,
  gap = 0,
  onEndReached,
  endThreshold = 10,
  total,
  scrollToKey,
}: VirtualListProps<T>) {
  const scrollRef = useContext(ScrollContext);
  const listRef = useRef<HTMLUListElement>(null);
  const [margin, setMargin] = useState(0);
  // The scroll container is an ancestor: when the list mounts in the same commit as it (the first
  // screen's data already in the cache at the first render), its ref is attached only after this
  // list's layout effects have run. Read once every ref is attached (a passive effect), then
  // measured against, so the list never stays empty.
  const [scroller, setScroller] = useState<HTMLElement | null>(() => scrollRef?.current ?? null);
  useEffect(() => setScroller(scrollRef?.current ?? null), [scrollRef]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !scroller) return;
    const measure = () =>
      setMargin(
        list.getBoundingClientRect().top -
          scroller.getBoundingClientRect().top +
          scroller.scrollTop,
      );
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(scroller);
    if (list.parentElement) ro.observe(list.parentElement);
    return () => ro.disconnect();
  }, [scroller]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller,
    estimateSize: () => estimateSize,
    overscan: 6,
    gap,
    scrollMargin: margin,
    getItemKey: (i) => getKey(items[i]!),
  });

  const scrolledTo = useRef<string | null>(null);
  const target =
    scrollToKey === undefined ? -1 : items.findIndex((item) => getKey(item) === scrollToKey);
  useEffect(() => {
    if (target < 0 || !scroller || scrolledTo.current === scrollToKey) return;
    // Rows are measured as they render and the list's offset may still change (the screen's header
    // laid out, data from the cache at the first render): scroll again each frame until the row is
    // on screen (at most 20 frames).
    let tries = 0;
    let frame = 0;
    const step = () => {
      virtualizer.scrollToIndex(target, { align: 'center' });
      const box = listRef.current
        ?.querySelector(`[data-index="${target}"]`)
        ?.getBoundingClientRect();
      const view = scroller.getBoundingClientRect();
      if ((box && box.top >= view.top && box.bottom <= view.bottom) || ++tries >= 20)
        scrolledTo.current = scrollToKey ?? null;
      else frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [target, scroller, scrollToKey, virtualizer, margin]);

  const rows = virtualizer.getVirtualItems();
  const lastRendered = rows.length === 0 ? -1 : rows[rows.length - 1]!.index;
  const nearEnd = items.length > 0 && lastRendered >= items.length - 1 - endThreshold;
  useEffect(() => {
    if (nearEnd) onEndReached?.();
  }, [nearEnd, items.length, onEndReached]);

  return (
    <ul
      ref={listRef}
      className="virtual-list"
      aria-label={label}
      data-testid={testId}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {rows.map((row) => (
        <li
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="virtual-row"
          style={{ transform: `translateY(${row.start - margin}px)` }}
          aria-setsize={Math.max(total ?? 0, items.length)}
          aria-posinset={row.index + 1}
        >
          {render(items[row.index]!, row.index)}
        </li>
      ))}
    </ul>
  );
}
