// Where the oracle's recorded verdicts live, and how kubelet's output becomes a verdict's words.
import { fileURLToPath } from 'node:url';

// NODE_CHECK_ORACLE_VERDICTS points the comparison at another copy (its own tests tamper with one).
export const VERDICTS_DIR = process.env.NODE_CHECK_ORACLE_VERDICTS ? `${process.env.NODE_CHECK_ORACLE_VERDICTS.replace(/\/$/, '')}/` : fileURLToPath(new URL('./verdicts/', import.meta.url));

export function verdictsPath(minor) {
  return `${VERDICTS_DIR}1.${minor}.json`;
}

/** OpenShift's kubelet of release 4.N judges that release's cases (scripts/oracle/judge.mjs --openshift). */
export function openshiftVerdictsPath(release) {
  return `${VERDICTS_DIR}openshift-${release}.json`;
}

// klog's text header: "E1201 19:30:01.123456    1234 server.go:123] " (k8s.io/klog/v2 klog.go formatHeader).
const KLOG_HEADER = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+\d+ [^\]]+\] /;
const TAIL_LINES = 12;
// The lines kubelet writes just before it exits (cli.Run's klog.ErrorS, the credential-provider
// step's klog.ErrorS + os.Exit(1) in pkg/kubelet/kuberuntime/kuberuntime_manager.go); they decide
// over error lines other goroutines write meanwhile.
const FATAL_MESSAGES = ['"command failed"', '"Failed to register CRI auth plugins"'];
// client-go's reflectors failing to list from the case's unreachable API server
// (k8s.io/client-go tools/cache/reflector.go): background noise, never why kubelet exits.
const BACKGROUND = /^k8s\.io\/client-go@[^:\s]+\/reflector\.go:\d+: /;

/** A Go %q string's value (klog writes err="…" with strconv.Quote). */
function unquoteGo(quoted) {
  try {
    return JSON.parse(quoted.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1').replace(/\\a/g, '\\u0007').replace(/\\v/g, '\\u000b'));
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * The deciding words of a kubelet that exited: the `Error: …` line cobra's cli.Run prints before
 * logging is set up (k8s.io/component-base cli/run.go), otherwise the last fatal klog line (else
 * the last error line that is not background noise) without its header (as node-check's
 * kubeletLogLine), and its err="…" value (kubeletError).
 * `tail` keeps the last lines, headers removed, for audit.
 */
export function normalizeOutput(output) {
  const lines = output.split('\n').map((l) => (l === ' >' ? l : l.replace(/\s+$/, ''))).filter(Boolean);
  const stripped = lines.map((l) => l.replace(KLOG_HEADER, ''));
  let logLine = null;
  let error = null;
  const errorLine = lines.findIndex((l) => l.startsWith('Error: '));
  if (errorLine >= 0) {
    // cobra prints the error as is: a multi-line one goes on to its usage text ("Usage:", 1.24)
    // or the next klog line.
    let end = errorLine + 1;
    while (end < lines.length && !KLOG_HEADER.test(lines[end]) && lines[end] !== 'Usage:' && !lines[end].startsWith('Error: ')) end++;
    logLine = lines.slice(errorLine, end).join('\n');
    error = logLine.slice('Error: '.length);
  } else {
    const candidates = [];
    for (let i = 0; i < lines.length; i++) if (/^[EF]\d{4} /.test(lines[i]) && !BACKGROUND.test(stripped[i])) candidates.push(i);
    const fatal = candidates.filter((i) => lines[i].startsWith('F') || FATAL_MESSAGES.some((m) => stripped[i].startsWith(m)));
    const i = (fatal.length ? fatal : candidates).pop();
    if (i !== undefined) {
      logLine = stripped[i];
      if (logLine.endsWith(' err=<')) {
        // klog writes a value with newlines as `err=<`, its lines indented by a tab, then ` >`
        // (k8s.io/klog/v2 internal/serialize): kept as the journal shows it, lines joined by \n.
        const body = [];
        for (let j = i + 1; j < lines.length && lines[j] !== ' >'; j++) body.push(lines[j].replace(/^\t/, ''));
        logLine = [logLine, ...body.map((l) => `\t${l}`), ' >'].join('\n');
        error = body.join('\n');
      } else {
        const err = /\berr="((?:[^"\\]|\\.)*)"/.exec(logLine);
        error = err ? unquoteGo(`"${err[1]}"`) : logLine;
      }
    }
  }
  return { logLine, error, tail: stripped.slice(-TAIL_LINES).map((l) => (l.length > 600 ? `${l.slice(0, 600)}…` : l)) };
}
