// Types of verdicts.mjs (plain JS, shared with the oracle's node scripts).
export declare const VERDICTS_DIR: string;
export declare function verdictsPath(minor: number): string;
export declare function normalizeOutput(output: string): { logLine: string | null; error: string | null; tail: string[] };
export declare function openshiftVerdictsPath(release: string): string;
