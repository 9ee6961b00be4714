// Types of cases.mjs (plain JS, shared with the oracle's node scripts): what the tests use.
export interface OracleCase {
  readonly id: string;
  readonly kind: 'fixture' | 'generated';
  readonly root?: string;
  readonly files?: Readonly<Record<string, { content: string | Buffer; mode: number }>>;
  readonly extraFiles?: Readonly<Record<string, { content: string | Buffer; mode: number }>>;
  readonly removeFiles?: readonly string[];
  readonly unit: string;
  readonly hash: string;
}
export declare function casesFor(minor: number): OracleCase[];
export declare function openshiftCasesFor(release: string): OracleCase[];
export declare function openshiftKubeletMinor(release: string): number;
export declare function materializeCase(kase: OracleCase): { root: string; cleanup: () => void };
