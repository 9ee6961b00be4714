/** Fallback files keep secrets at 0600; hostile provider names cannot break them. */
import t from 'tap';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { brokenAcrNode, BIN_DIR, CONFIG } from '../helpers/node-root.js';
import { NO_CRASH, runBundle } from './bundle.js';

const FILTERED = 'run/node-check/credential-providers/kubelet.service.yaml';
const DROP_IN = 'run/systemd/system/kubelet.service.d/99-node-check-fallback.conf';

function provider(name: string): string {
  // YAML escapes: the file itself is ASCII (go-yaml refuses raw C1 controls in a file).
  const quoted = JSON.stringify(name).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `  - name: ${quoted}
    apiVersion: credentialprovider.kubelet.k8s.io/v1
    matchImages: ["*.example.com"]
    defaultCacheDuration: "10m"
    env:
      - name: CLIENT_SECRET
        value: "s3cr3t-value"
`;
}

for (const badName of ['missing-plugin', 'bad\u2028name', 'bad\u0085name', 'bad\u009b31mname', 'bad\u202ename', 'bad\rname']) {
  const shown = badName.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  t.test(`a failing provider named ${shown}: the working one stays, secrets stay 0600`, async (t) => {
    const config = `apiVersion: kubelet.config.k8s.io/v1\nkind: CredentialProviderConfig\nproviders:\n${provider('good-provider')}${provider(badName)}`;
    const root = brokenAcrNode(t.testdir(), { [CONFIG]: { content: config, mode: 0o600 }, [`${BIN_DIR}/good-provider`]: { content: '#!/bin/sh\n', mode: 0o755 } });
    const run = runBundle(['preflight', '--fallback', '--root', root, '--kubelet-version', '1.28.7', '--no-journal', '--no-metrics']);
    t.notMatch(run.stdout + run.stderr, NO_CRASH);
    t.equal(run.status, 0, 'kubelet starts under the fallback');
    const filtered = fs.readFileSync(path.join(root, FILTERED), 'utf8');
    t.match(filtered, /name: "?good-provider/, 'the working provider is kept');
    t.notMatch(filtered, /bad/.test(badName) ? /name: "?bad/ : /name: missing-plugin/, 'only the failing one is removed');
    t.notMatch(filtered, /[\u0080-\u009f\u2028\u2029\u202e\r]/, 'no raw control or layout characters');
    for (const file of [FILTERED, DROP_IN]) {
      t.equal(fs.statSync(path.join(root, file)).mode & 0o777, 0o600, `${file} is 0600 (its source holds a secret)`);
    }
    t.notMatch(fs.readFileSync(path.join(root, DROP_IN), 'utf8'), /[\u0080-\u009f\u2028\u2029\u202e\r]/);
  });
}
