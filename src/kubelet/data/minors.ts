/**
 * The kubelet minors node-check models: one row per minor, oldest first. This table is the one
 * place that says which minors are modelled; every guard, generator, document and test reads it
 * (docs/adding-a-minor.md). A minor without a row is not modelled: its node answers null (exit 2),
 * never a neighbour's rules.
 *
 * `kubernetes` is the k8s.io/kubernetes release whose source the generated per-minor tables were
 * read from: the patch scripts/generate/kubernetes-source.lock.json pins (a test checks they agree).
 * A row is added by hand after `npm run generate -- --minor 1.N` wrote that minor's generated
 * tables and its hand-kept rows were reviewed against the tag (docs/adding-a-minor.md).
 *
 * Kubernetes 1.38 is planned for 2026-12-16 (kubernetes/sig-release releases/release-1.38/README.md);
 * until its GA tag is on the module proxy it has no row.
 */
export interface MinorRow {
  readonly minor: number;
  /** The k8s.io/kubernetes tag read, e.g. "v1.37.2". */
  readonly kubernetes: string;
}

export const MINOR_ROWS: readonly MinorRow[] = [
  { minor: 24, kubernetes: 'v1.24.17' },
  { minor: 25, kubernetes: 'v1.25.16' },
  { minor: 26, kubernetes: 'v1.26.15' },
  { minor: 27, kubernetes: 'v1.27.16' },
  { minor: 28, kubernetes: 'v1.28.15' },
  { minor: 29, kubernetes: 'v1.29.15' },
  { minor: 30, kubernetes: 'v1.30.14' },
  { minor: 31, kubernetes: 'v1.31.14' },
  { minor: 32, kubernetes: 'v1.32.13' },
  { minor: 33, kubernetes: 'v1.33.13' },
  { minor: 34, kubernetes: 'v1.34.12' },
  { minor: 35, kubernetes: 'v1.35.8' },
  { minor: 36, kubernetes: 'v1.36.5' },
  { minor: 37, kubernetes: 'v1.37.2' },
];

export const OLDEST_MODELLED_MINOR: number = MINOR_ROWS[0]!.minor;
export const NEWEST_MODELLED_MINOR: number = MINOR_ROWS[MINOR_ROWS.length - 1]!.minor;
export const MODELLED_MINORS: readonly number[] = MINOR_ROWS.map((row) => row.minor);
/** "1.24-1.37", for messages and documents. */
export const MODELLED_RANGE = `1.${OLDEST_MODELLED_MINOR}-1.${NEWEST_MODELLED_MINOR}`;

export function isModelledMinor(minor: number): boolean {
  return Number.isInteger(minor) && minor >= OLDEST_MODELLED_MINOR && minor <= NEWEST_MODELLED_MINOR;
}

/** The row of a modelled minor; undefined for any other. */
export function minorRow(minor: number): MinorRow | undefined {
  return isModelledMinor(minor) ? MINOR_ROWS[minor - OLDEST_MODELLED_MINOR] : undefined;
}

/** The minor after the newest: not modelled until its tag is read and its row added (docs/adding-a-minor.md). */
export const NEXT_MINOR: number = NEWEST_MODELLED_MINOR + 1;
