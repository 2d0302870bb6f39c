/**
 * A value kept by key in `memo`, made by `make` on a miss, the oldest entry dropped past `limit`
 * (Map keeps insertion order). When `make` throws nothing is kept, so a refused input fails the
 * same way each time.
 */
export function kept<V>(memo: Map<string, V>, limit: number, key: string, make: () => V): V {
  if (memo.has(key)) return memo.get(key)!;
  const value = make();
  if (memo.size >= limit) memo.delete(memo.keys().next().value!);
  memo.set(key, value);
  return value;
}
