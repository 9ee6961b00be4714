/**
 * `node-check preflight`: the ExecStartPre entry point. The same evaluation as `check`, then the
 * fallback when enabled, then the sinks (journal, metrics textfile), all within --timeout.
 * Exit codes as for `check`; the shipped drop-in runs it with "-" so that it never blocks kubelet.
 */
import type { Settings } from '../../settings.js';
import type { CliIo } from '../io.js';
import { exitCodeFor, ExitCode, type Report } from '../../model/report.js';
import { runNodeCheck } from '../../run-node-check.js';
import { withinBudget } from '../budget.js';
import { armWatchdog, WATCHDOG_GRACE_MS, type LastWords } from '../watchdog.js';
import { forStderr } from '../stderr-priority.js';
import { formatForStderr, journalEntriesFor, serializeForLogger, undecidedRunEntry, type JournalEntry } from '../../sinks/journal-entry.js';
import { DEFAULT_JOURNAL_SOCKET, writeJournal } from '../../sinks/journal.js';
import { collapseRepeats } from '../../sinks/journal-collapse.js';
import { renderMetrics, renderUndecidedMetrics, writeTextfile } from '../../sinks/metrics.js';
import { prepareTextfile } from '../../sinks/textfile.js';
import { cannotDecide } from '../../evaluate/context-findings.js';
import { escapeUnprintable } from '../../render/printable.js';
import { VERSION } from '../../version.js';
import { applyIgnores } from '../../evaluate/ignore.js';
import { renderJson } from '../../render/json.js';
import { renderProvenance } from '../../render/text.js';

export const TEXTFILE_NAME = 'node-check.prom';

export async function runPreflight(settings: Settings, io: CliIo): Promise<number> {
  const started = process.hrtime.bigint();
  const budgetMs = settings.timeoutSeconds * 1000;
  const deadline = Date.now() + budgetMs;
  const remainingMs = () => Math.max(100, deadline - Date.now());
  const known: { report?: Report; pendingJournal?: readonly JournalEntry[] } = {};
  // Synchronous work cannot be interrupted by the timer below: past the grace, the process is
  // killed, and the watchdog leaves "cannot tell" metrics and journal entry prepared now.
  const lastWords = prepareLastWords(settings, deadline + WATCHDOG_GRACE_MS);
  const watchdog = armWatchdog(budgetMs + WATCHDOG_GRACE_MS, forStderr(`<3>node-check: preflight overran its ${settings.timeoutSeconds} s budget in synchronous work; killed so that kubelet can start.\n`, io.stderrIsJournal === true), lastWords);

  try {
    return await withinBudget(
    budgetMs,
    async () => {
      const report = applyIgnores(await runNodeCheck(settings, { applyFallback: settings.fallback, timeoutMs: remainingMs, warn: io.stderr, upgradeWarnings: false }), settings.ignore);
      known.report = report;
      io.stdout(settings.output === 'json' ? renderJson(report) : `${io.stdoutIsJournal ? summaryPriority(report) : ''}${summaryLine(report)}`);
      if (settings.verbose && settings.output !== 'json') io.stderr(verboseLines(report));
      const durationSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const sinkErrors: string[] = [];
      if (settings.metrics) {
        try {
          const text = await renderMetrics(report, { version: VERSION, durationSeconds, nowSeconds: Date.now() / 1000 });
          writeTextfile(settings.textfileDir, TEXTFILE_NAME, text);
        } catch (error) {
          sinkErrors.push(`metrics: ${(error as Error).message}`);
        }
      }
      if (settings.journal) {
        // Kubelet crash-loops: a finding already written this boot is written again only as a counted reminder.
        const collapsed = collapseRepeats(journalEntriesFor(report, { unit: settings.unit, pid: process.pid }), settings.root, Date.now());
        known.pendingJournal = collapsed.write;
        if (collapsed.write.length > 0) await writeJournal(collapsed.write, { timeoutMs: remainingMs(), stderr: io.stderr, objectPid: process.pid });
        known.pendingJournal = undefined;
        const problem = collapsed.commit();
        if (problem !== undefined) sinkErrors.push(problem);
      }
      for (const problem of sinkErrors) io.stderr(`<4>node-check: ${escapeUnprintable(problem)}\n`);
      return exitCodeFor(report);
    },
    () => {
      io.stderr(`<4>node-check: preflight ran out of its ${settings.timeoutSeconds} s budget${known.report ? ' while reporting' : ' before it could decide'}.\n`);
      if (!known.report && settings.metrics) writeUndecidedMetrics(settings.textfileDir, io);
      // The journal was being written: its findings are not lost, they go to stderr.
      for (const entry of known.pendingJournal ?? []) io.stderr(formatForStderr(entry));
      return known.report ? exitCodeFor(known.report) : ExitCode.unknown;
    },
  );
  } catch (error) {
    // A bug: the exit code says so (70); the metrics must not keep an earlier answer meanwhile.
    if (!known.report && settings.metrics) writeUndecidedMetrics(settings.textfileDir, io);
    throw error;
  } finally {
    watchdog.disarm();
    lastWords.discard();
  }
}

/**
 * What preflight's watchdog writes if it must kill (a run that cannot decide in time): the
 * "cannot tell" textfile, written now as a temp file for the watchdog to rename, and the journal
 * entry. Best effort: a textfile directory that cannot be written is reported by the real write.
 */
export function prepareLastWords(settings: Settings, killedAtMs: number): LastWords & { readonly discard: () => void } {
  let textfile: ReturnType<typeof prepareTextfile> | undefined;
  if (settings.metrics) {
    try {
      textfile = prepareTextfile(settings.textfileDir, TEXTFILE_NAME, renderUndecidedMetrics({ version: VERSION, nowSeconds: killedAtMs / 1000 }));
    } catch {
      // reported when preflight writes the textfile
    }
  }
  const entry = settings.journal
    ? undecidedRunEntry(cannotDecide(`preflight overran its ${settings.timeoutSeconds} s budget before it could decide, and was killed so that kubelet can start.`, 'budget'), { unit: settings.unit, pid: process.pid })
    : undefined;
  return {
    ...(textfile ? { rename: { from: textfile.temp, to: textfile.target } } : {}),
    ...(entry ? { journal: { entry: serializeForLogger(entry), stderr: formatForStderr(entry), socketPath: DEFAULT_JOURNAL_SOCKET } } : {}),
    discard: () => textfile?.discard(),
  };
}

/**
 * A preflight that stopped before it could decide (usage error, bad settings file, internal
 * error, out of its budget) replaces the textfile with "cannot tell" and nodecheck_last_run_ok 0:
 * an earlier nodecheck_kubelet_start_ok 1 must not stay in place. Best effort, synchronous.
 */
export function writeUndecidedMetrics(textfileDir: string, io: Pick<CliIo, 'stderr'>): void {
  try {
    writeTextfile(textfileDir, TEXTFILE_NAME, renderUndecidedMetrics({ version: VERSION, nowSeconds: Date.now() / 1000 }));
  } catch (error) {
    io.stderr(`<4>node-check: metrics: ${escapeUnprintable((error as Error).message)}\n`);
  }
}

/**
 * One line for `systemctl status kubelet`: the answer and the first reason. Exactly one line: it
 * goes to the journal through kubelet's stdout stream, where every line break starts a new entry
 * and a leading `<N>` sets its priority, so text from config files (provider names, paths) is
 * escaped.
 */
export function summaryLine(report: Report): string {
  const first = report.findings.find((f) => f.severity === 'error') ?? report.findings.find((f) => f.id === 'cannot-decide');
  const fallback = report.fallback.active ? ` (fallback active: without ${report.fallback.removedProviders?.join(', ') || 'credential providers'})` : '';
  const ignored = report.ignored?.verdictIgnored ? ` (ignored by --ignore: ${escapeUnprintable(report.ignored.ids.join(', '))})` : '';
  if (report.kubeletWillStart === true) return `node-check: kubelet is predicted to start${escapeUnprintable(fallback)}.\n`;
  if (report.kubeletWillStart === false) return `node-check: kubelet will NOT start: ${escapeUnprintable(first?.message ?? '')} [${escapeUnprintable(first?.id ?? '')}]${ignored}\n`;
  return `node-check: cannot tell whether kubelet will start: ${escapeUnprintable(first?.message ?? '')}${ignored}\n`;
}

/**
 * The summary's journal priority, so that `journalctl -u kubelet -p err` shows a refusal: err for
 * "will not start", warning for "cannot tell" or an ignored refusal, the stream's default (info)
 * for "will start". systemd takes a leading `<N>` off a stream line as its priority
 * (SyslogLevelPrefix=, on by default, systemd.exec(5)).
 */
export function summaryPriority(report: Report): string {
  if (report.kubeletWillStart === true) return '';
  return report.kubeletWillStart === false && !report.ignored?.verdictIgnored ? '<3>' : '<4>';
}

/** preflight --verbose: the provenance on stderr (stdout keeps its one summary line), escaped, no `<N>` prefix. */
function verboseLines(report: Report): string {
  return renderProvenance(report).map((line) => `node-check: ${escapeUnprintable(line)}\n`).join('');
}
