/**
 * A per-minor data table kept as JSON text and parsed on first use of each minor (start-path cost: on
 * kubelet's start path, building every minor's object literals cost more than the check of the
 * one minor it needs; JSON.parse of one minor's text is cheap). Reads like a plain record.
 * Each text is returned by a function: a function never called is never compiled, so the other
 * minors' texts stay out of the code cache and off the heap (~170 KB of strings).
 */
export function perMinorJson<T>(texts: Readonly<Record<number, () => string>>): Readonly<Record<number, T>> {
  return lazyPerMinor(Object.keys(texts), (minor) => JSON.parse(texts[minor]!()) as T);
}

/** A per-minor table made from another one's entry, on first use of each minor. */
export function perMinorDerived<S, T>(source: Readonly<Record<number, S>>, derive: (entry: S) => T): Readonly<Record<number, T>> {
  return lazyPerMinor(Object.keys(source), (minor) => derive(source[minor]!));
}

function lazyPerMinor<T>(keys: readonly string[], make: (minor: number) => T): Readonly<Record<number, T>> {
  const table: Record<number, T> = {};
  for (const key of keys) {
    Object.defineProperty(table, key, {
      enumerable: true,
      configurable: true,
      get(): T {
        const value = make(Number(key));
        Object.defineProperty(table, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return table;
}
