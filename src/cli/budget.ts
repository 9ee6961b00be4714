/**
 * A hard time budget for a whole command (preflight sits on kubelet's start path: it must never
 * hang it). Resolves with the work's result, or with `onExpiry()` when the budget runs out first;
 * the work is abandoned, and main.ts makes sure abandoned work cannot keep the process alive.
 */
export async function withinBudget<T>(budgetMs: number, work: () => Promise<T>, onExpiry: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onExpiry());
      } catch (error) {
        reject(error); // onExpiry may throw: the race rejects, nothing is left uncaught
      }
    }, budgetMs);
  });
  try {
    return await Promise.race([work(), expiry]);
  } finally {
    clearTimeout(timer);
  }
}
