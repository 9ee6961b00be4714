import t from 'tap';
import { loadService } from '../../src/systemd/load-service.js';
import {
  AWS_PROVIDERID_DROPIN,
  CRIO_CREDENTIAL_PROVIDER_DROPIN,
  KUBEADM_FLAGS_ENV,
  KUBEADM_KUBELET_UNIT,
  kubeadmDropIn,
  MCO_KUBENS_DROPIN,
  MCO_LOGGING_DROPIN,
  MCO_MADV_DROPIN,
  NODE_SIZING_ENV,
  OPENSHIFT_416_AWS_WORKER_UNIT,
  OPENSHIFT_422_ON_PREM_UNIT,
  RHCOS_OS_RELEASE,
} from './fixtures/real-units.js';
import { makeTempRoot } from './temp-root.js';

const ETC = '/etc/systemd/system';
const LIB = '/usr/lib/systemd/system';
const BIN_DIR = '--image-credential-provider-bin-dir=/usr/libexec/kubelet-image-credential-provider-plugins';

t.test('OpenShift 4.16 AWS worker: continued ExecStart, env files, MCO drop-ins', async (t) => {
  const fs = makeTempRoot(
    {
      files: {
        [`${ETC}/kubelet.service`]: OPENSHIFT_416_AWS_WORKER_UNIT,
        [`${ETC}/kubelet.service.d/01-kubens.conf`]: MCO_KUBENS_DROPIN,
        [`${ETC}/kubelet.service.d/10-mco-default-madv.conf`]: MCO_MADV_DROPIN,
        [`${ETC}/kubelet.service.d/20-logging.conf`]: MCO_LOGGING_DROPIN,
        [`${ETC}/kubelet.service.d/20-aws-providerid.conf`]: AWS_PROVIDERID_DROPIN,
        '/etc/os-release': RHCOS_OS_RELEASE,
        '/etc/node-sizing.env': NODE_SIZING_ENV,
        '/usr/lib/systemd/libsystemd-shared-252.so': '',
      },
    },
    t.teardown,
  );
  const m = loadService(fs, 'kubelet.service');
  t.same(m.diagnostics, []);
  t.equal(m.systemdVersion, 252);
  t.equal(m.fragmentPath, `${ETC}/kubelet.service`);
  t.same(m.dropInPaths, [
    `${ETC}/kubelet.service.d/01-kubens.conf`,
    `${ETC}/kubelet.service.d/10-mco-default-madv.conf`,
    `${ETC}/kubelet.service.d/20-aws-providerid.conf`,
    `${ETC}/kubelet.service.d/20-logging.conf`,
  ]);
  t.equal(m.execStart?.source.line, 17);
  t.equal(m.execStart?.path, '/usr/local/bin/kubenswrapper');
  t.same(m.execStart?.argv, [
    '/usr/local/bin/kubenswrapper',
    '/usr/bin/kubelet',
    '--config=/etc/kubernetes/kubelet.conf',
    '--bootstrap-kubeconfig=/etc/kubernetes/kubeconfig',
    '--kubeconfig=/var/lib/kubelet/kubeconfig',
    '--container-runtime-endpoint=/var/run/crio/crio.sock',
    '--runtime-cgroups=/system.slice/crio.service',
    '--node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=rhcos',
    '--node-ip=0.0.0.0',
    '--minimum-container-ttl-duration=6m0s',
    '--volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec',
    '--cloud-provider=external',
    BIN_DIR,
    '--image-credential-provider-config=/etc/kubernetes/credential-providers/ecr-credential-provider.yaml',
    '--hostname-override=',
    '--provider-id=aws:///us-east-1a/i-0123456789abcdef0',
    '--pod-infra-container-image=quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0000000000000000000000000000000000000000000000000000000000000000',
    '--system-reserved=cpu=500m,memory=1Gi,ephemeral-storage=1Gi',
    '--v=2',
  ]);
  t.same(m.execStart?.unsetVariables, ['KUBELET_NODE_NAME']);
  t.equal(m.environment['GODEBUG'], 'x509ignoreCN=0,madvdontneed=1');
  t.same(
    m.environmentFiles.map((f) => [f.path, f.optional, f.loaded]),
    [
      ['/etc/os-release', false, true],
      ['/etc/kubernetes/kubelet-workaround', true, false],
      ['/etc/kubernetes/kubelet-env', true, false],
      ['/etc/node-sizing.env', false, true],
      ['/run/kubens/env', true, false],
    ],
  );
});

t.test('OpenShift: a missing /etc/node-sizing.env is one that systemd refuses to load', async (t) => {
  const fs = makeTempRoot({ files: { [`${ETC}/kubelet.service`]: OPENSHIFT_416_AWS_WORKER_UNIT, '/etc/os-release': RHCOS_OS_RELEASE } }, t.teardown);
  const m = loadService(fs, 'kubelet.service', { systemdVersion: 252 });
  // The systemd step refuses it from the errno (systemd-environment-file-missing); no diagnostic repeats it.
  t.same(m.diagnostics, []);
  t.match(m.environmentFiles.find((f) => f.path === '/etc/node-sizing.env'), { optional: false, loaded: false, errno: 'ENOENT' });
  t.ok(m.execStart?.argv.includes('--system-reserved=cpu=,memory=,ephemeral-storage='));
});

t.test('OpenShift 4.22 on-prem: unbraced $KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS expands to two flags', async (t) => {
  const files = {
    [`${ETC}/kubelet.service`]: OPENSHIFT_422_ON_PREM_UNIT,
    [`${ETC}/kubelet.service.d/20-logging.conf`]: MCO_LOGGING_DROPIN,
    [`${ETC}/kubelet.service.d/40-kubelet-crio-image-credential-provider.conf`]: CRIO_CREDENTIAL_PROVIDER_DROPIN,
    '/etc/os-release': RHCOS_OS_RELEASE,
    '/etc/node-sizing.env': NODE_SIZING_ENV,
  };
  const m = loadService(makeTempRoot({ files }, t.teardown), 'kubelet.service', { systemdVersion: 252 });
  t.same(m.diagnostics, []);
  const argv = m.execStart!.argv;
  const at = argv.indexOf('--cloud-provider=');
  t.same(argv.slice(at, at + 4), [
    '--cloud-provider=',
    BIN_DIR,
    '--image-credential-provider-config=/etc/kubernetes/credential-providers/generic-credential-provider.yaml',
    '--hostname-override=',
  ]);
  t.ok(argv.includes('--node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=rhcos,'));
  t.same(m.execStart!.words.filter((w) => w.startsWith('$')), ['$KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS']);

  const without = Object.fromEntries(Object.entries(files).filter(([path]) => !path.endsWith('40-kubelet-crio-image-credential-provider.conf')));
  const plain = loadService(makeTempRoot({ files: without }, t.teardown), 'kubelet.service', { systemdVersion: 252 });
  const plainArgv = plain.execStart!.argv;
  const at2 = plainArgv.indexOf('--cloud-provider=');
  t.equal(plainArgv[at2 + 1], '--hostname-override=', 'no drop-in: the variable leaves no word');
  t.equal(plainArgv.length, argv.length - 2);
  t.ok(plain.execStart!.unsetVariables?.includes('KUBELET_CRIO_IMAGE_CREDENTIAL_PROVIDER_FLAGS'));
});

t.test('kubeadm (deb): 10-kubeadm.conf resets ExecStart and the $VARs come from Environment= and env files', async (t) => {
  const fs = makeTempRoot(
    {
      files: {
        [`${LIB}/kubelet.service`]: KUBEADM_KUBELET_UNIT,
        [`${LIB}/kubelet.service.d/10-kubeadm.conf`]: kubeadmDropIn('/etc/default/kubelet'),
        '/var/lib/kubelet/kubeadm-flags.env': KUBEADM_FLAGS_ENV,
        '/etc/default/kubelet':
          'KUBELET_EXTRA_ARGS=--image-credential-provider-config=/etc/kubernetes/credential-provider.yaml --image-credential-provider-bin-dir=/usr/local/bin/credential-providers  \n',
      },
    },
    t.teardown,
  );
  const m = loadService(fs, 'kubelet.service', { systemdVersion: 252 });
  t.same(m.diagnostics, []);
  t.equal(m.fragmentPath, `${LIB}/kubelet.service`);
  t.same(m.dropInPaths, [`${LIB}/kubelet.service.d/10-kubeadm.conf`]);
  t.equal(m.execStart?.source.file, `${LIB}/kubelet.service.d/10-kubeadm.conf`);
  t.equal(m.execStart?.source.line, 11);
  t.same(m.execStart?.words, ['/usr/bin/kubelet', '$KUBELET_KUBECONFIG_ARGS', '$KUBELET_CONFIG_ARGS', '$KUBELET_KUBEADM_ARGS', '$KUBELET_EXTRA_ARGS']);
  t.same(m.execStart?.argv, [
    '/usr/bin/kubelet',
    '--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf',
    '--kubeconfig=/etc/kubernetes/kubelet.conf',
    '--config=/var/lib/kubelet/config.yaml',
    '--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock',
    '--pod-infra-container-image=registry.k8s.io/pause:3.10',
    '--image-credential-provider-config=/etc/kubernetes/credential-provider.yaml',
    '--image-credential-provider-bin-dir=/usr/local/bin/credential-providers',
  ]);
});

t.test('kubeadm (rpm): /etc/sysconfig/kubelet absent is fine; an /etc drop-in Environment= loses to the env file', async (t) => {
  const files = {
    [`${LIB}/kubelet.service`]: KUBEADM_KUBELET_UNIT,
    [`${LIB}/kubelet.service.d/10-kubeadm.conf`]: kubeadmDropIn('/etc/sysconfig/kubelet'),
    [`${ETC}/kubelet.service.d/20-extra.conf`]: '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--v=4"\n',
    '/var/lib/kubelet/kubeadm-flags.env': KUBEADM_FLAGS_ENV,
  };
  const m = loadService(makeTempRoot({ files }, t.teardown), 'kubelet.service', { systemdVersion: 239 });
  t.same(m.diagnostics, []);
  t.same(m.execStart?.argv.slice(-1), ['--v=4']);
  t.same(
    m.environmentFiles.map((f) => [f.path, f.loaded]),
    [
      ['/var/lib/kubelet/kubeadm-flags.env', true],
      ['/etc/sysconfig/kubelet', false],
    ],
  );

  const withFile = loadService(makeTempRoot({ files: { ...files, '/etc/sysconfig/kubelet': 'KUBELET_EXTRA_ARGS="--v=6 --max-pods=200"\n' } }, t.teardown), 'kubelet.service', {
    systemdVersion: 239,
  });
  t.same(withFile.execStart?.argv.slice(-2), ['--v=6', '--max-pods=200']);
});

t.test('kubeadm: an /etc override with its own ExecStart= reset wins by file name order', async (t) => {
  const fs = makeTempRoot(
    {
      files: {
        [`${LIB}/kubelet.service`]: KUBEADM_KUBELET_UNIT,
        [`${LIB}/kubelet.service.d/10-kubeadm.conf`]: kubeadmDropIn('/etc/default/kubelet'),
        [`${ETC}/kubelet.service.d/90-local.conf`]: '[Service]\nExecStart=\nExecStart=/usr/local/bin/kubelet $KUBELET_CONFIG_ARGS\n',
      },
    },
    t.teardown,
  );
  const m = loadService(fs, 'kubelet.service', { systemdVersion: 252 });
  t.same(m.execStart?.argv, ['/usr/local/bin/kubelet', '--config=/var/lib/kubelet/config.yaml']);
  t.same(m.diagnostics, []);
});
