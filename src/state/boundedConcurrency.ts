/**
 * Runs `task` over `items` with at most `limit` tasks in flight; the results keep the input order.
 * The first rejection rejects the whole run (tasks already started are left to finish).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit), items.length));
  await Promise.all(Array.from({ length: items.length === 0 ? 0 : workers }, worker));
  return results;
}
