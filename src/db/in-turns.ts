/**
 * One read per element of a list, at most `width` at a time, the answers in the list's
 * order. A list answered with a few queries per row (OCTo's bookings: up to 500 at once)
 * sent them all together, and a pool of ten connections then served that one request
 * while every other request queued behind its thousands of queries.
 */

/** The most reads one request keeps in flight: a few of the pool's connections, not all. */
export const READ_WIDTH = 4;

export async function inTurns<T, R>(
  items: readonly T[],
  width: number,
  read: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < items.length && !failed) {
      const at = next++;
      try {
        answers[at] = await read(items[at]!);
      } catch (error) {
        failed = true; // the answer is lost: the other workers take no more
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return answers;
}
