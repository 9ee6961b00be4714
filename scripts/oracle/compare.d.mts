// Types of compare.mjs (plain JS): what the tests use.
export declare function compareCase(api: unknown, recording: unknown, kase: unknown, verdict: unknown): Promise<{ agree: boolean; judged: boolean; held?: string; unseen?: string; problem?: string }>;
export declare function compareAll(options?: { log?: (line: string) => void; listHeld?: boolean }): Promise<boolean>;
