import t from 'tap';
import { checkNode } from '../../src/check-node.js';
import { BIN_DIR, CONFIG, brokenAcrNode } from '../helpers/node-root.js';

t.test('--verbose lists each file read once, and every other path looked at', async (t) => {
  const config = `apiVersion: kubelet.config.k8s.io/v1
kind: CredentialProviderConfig
providers:
${['present', 'missing', 'also-present'].map((name) => `  - name: ${name}\n    apiVersion: credentialprovider.kubelet.k8s.io/v1\n    defaultCacheDuration: "10m"\n    matchImages: ["*.azurecr.io"]\n`).join('')}`;
  const root = brokenAcrNode(t.testdir(), {
    [CONFIG]: config,
    [`${BIN_DIR}/present`]: { content: '#!/bin/sh\n', mode: 0o755 },
    [`${BIN_DIR}/also-present`]: { content: '#!/bin/sh\n', mode: 0o755 },
  });
  const report = await checkNode({ root, unit: 'kubelet.service', kubeletVersion: '1.29.5', verbose: true });
  const provenance = report.provenance!;
  t.same(provenance.filesRead, ['/etc/systemd/system/kubelet.service', '/etc/kubernetes/kubelet.conf', CONFIG, `${BIN_DIR}/present`, `${BIN_DIR}/also-present`]);
  // The serving certificate's files in --cert-dir come next (src/kubelet/node-setup/serving-cert.ts),
  // then /etc/passwd, which this root does not have (src/kubelet/node-setup/user-namespaces.ts).
  const pki = ['kubelet.crt', 'kubelet.key', 'kubelet-server-current.pem', 'kubelet-server-updated.pem', 'kubelet-server.crt', 'kubelet-server.key'].map((f) => `/var/lib/kubelet/pki/${f}`);
  t.same(provenance.pathsExamined, [BIN_DIR, '/bin/sh', `${BIN_DIR}/missing`, '/usr/bin/kubelet', '/usr/bin', ...pki, '/etc/passwd'], 'in the order discovery looked');
});
