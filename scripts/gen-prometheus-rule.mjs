#!/usr/bin/env node
// Prints packaging/prometheus/node-check.rules.yaml for an installation:
//   --runbook-base URL   where docs/runbooks/ is published for you (an internal Git server, a
//                        wiki); default file:///usr/share/doc/node-check/runbooks/ (the RPM's copy,
//                        for alerts read on the node)
//   --prometheus-rule    wrapped in a PrometheusRule (prometheus-operator / OpenShift); needs an
//                        http(s) --runbook-base: a console or Alertmanager cannot open a node's file
//   --namespace NS       its namespace (default node-check, the DaemonSet's)
// node-check has no public web home, so no other URL is built in.
// Exit codes: 0 written, 64 usage.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

export const DEFAULT_RUNBOOK_BASE = 'file:///usr/share/doc/node-check/runbooks/';
const RULES = fileURLToPath(new URL('../packaging/prometheus/node-check.rules.yaml', import.meta.url));

function usage(message) {
  process.stderr.write(`gen-prometheus-rule: ${message}\nusage: node scripts/gen-prometheus-rule.mjs [--runbook-base URL] | --runbook-base URL --prometheus-rule [--namespace NS]\n`);
  process.exit(64);
}

const options = { base: undefined, wrap: false, namespace: 'node-check' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [flag, inline] = argv[i].split(/=(.*)/s);
  const value = () => {
    const v = inline ?? argv[++i];
    if (v === undefined || v === '') usage(`${flag} needs a value`);
    return v;
  };
  if (flag === '--runbook-base') options.base = value();
  else if (flag === '--prometheus-rule') options.wrap = true;
  else if (flag === '--namespace') options.namespace = value();
  else usage(`unknown argument ${JSON.stringify(argv[i])}`);
}
if (options.wrap && options.base === undefined) {
  usage(`--prometheus-rule needs --runbook-base URL: the alerts of a PrometheusRule are read in the cluster's console and Alertmanager, which cannot open ${DEFAULT_RUNBOOK_BASE} on a node; publish docs/runbooks/ (an internal Git server, a wiki) and pass its URL`);
}
let base;
try {
  base = new URL(options.base ?? DEFAULT_RUNBOOK_BASE);
} catch {
  usage(`--runbook-base ${JSON.stringify(options.base)} is not an absolute URL`);
}
if (!['https:', 'http:', 'file:'].includes(base.protocol)) usage(`--runbook-base: ${base.protocol} URLs are not links a browser opens`);
if (options.wrap && base.protocol === 'file:') usage(`--prometheus-rule: --runbook-base ${base.href} is a file on a node, which a console or Alertmanager cannot open; pass the http(s) URL where docs/runbooks/ is published`);
if (!base.pathname.endsWith('/')) usage('--runbook-base must end with "/" (it is the runbooks directory)');
if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(options.namespace)) usage(`--namespace ${JSON.stringify(options.namespace)} is not a namespace name`);

const text = readFileSync(RULES, 'utf8');
// Only the base changes; comments and layout stay as committed.
const rebased = text.split(DEFAULT_RUNBOOK_BASE).join(base.href);
if (!options.wrap) {
  process.stdout.write(rebased);
} else {
  const { groups } = parse(rebased);
  process.stdout.write(
    stringify(
      {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: { name: 'node-check', namespace: options.namespace, labels: { 'app.kubernetes.io/name': 'node-check' } },
        spec: { groups },
      },
      { lineWidth: 0 },
    ),
  );
}
