/** Polls until `check` passes, or throws its last failure after `ms` (for background workers). */
export async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
