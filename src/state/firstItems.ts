/** The first `max` items of a list (all of them when fewer); the rest is never read. */
export async function firstItems<T>(list: AsyncIterable<T>, max: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) {
    items.push(item);
    if (items.length >= max) break;
  }
  return items;
}
