/** What a command may touch of the process, handed down from main.ts (the only place that reads process.*). */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  /** The terminal's width, when stdout is one (help is laid out to fit it). */
  readonly columns?: number;
  /**
   * stderr is a journal stream ($JOURNAL_STREAM names it): `<N>` priority prefixes are kept only
   * then. `stderr` above already honours it; this is for what writes to fd 2 by itself (the watchdog).
   */
  readonly stderrIsJournal?: boolean;
  /** stdout is a journal stream: preflight's summary line then carries its own `<N>` priority. */
  readonly stdoutIsJournal?: boolean;
  /**
   * Resolves when SIGTERM/SIGINT arrives, for a command that called `claimShutdown()` (serve). Any
   * other command is ended by main.ts at once (exit 143 for SIGTERM, 130 for SIGINT).
   */
  readonly shutdownSignal: Promise<string>;
  /** This command shuts down in order on the first SIGTERM/SIGINT (a second one still exits at once). */
  readonly claimShutdown?: () => void;
}
