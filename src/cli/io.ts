/** What a command may touch of the process, handed down from main.ts (the only place that reads process.*). */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdoutIsTTY: boolean;
  /** Resolves when SIGTERM/SIGINT arrives (for `serve`). */
  readonly shutdownSignal: Promise<string>;
}
