/**
 * Finding kinds of the systemd-level start checks (src/systemd-preconditions/check-systemd.ts) and
 * of cgroup v1 (src/host-facts/check-host.ts; the other host checks' kinds are their rules', src/rules/). MESSAGE_IDs were
 * generated once (uuid4 without dashes) and must never change.
 */
import type { FindingKind } from '../findings.js';

export const HOST_KINDS = [
  {
    id: 'systemd-unit-masked',
    title: 'The kubelet unit is masked',
    severity: 'error',
    versions: 'all (systemd)',
    messageId: '0adc68f154be4d4f910d9dba30c9c475',
    meaning:
      'The unit file is a link to /dev/null (or empty), so systemd refuses every start job: `systemctl start kubelet` prints "Failed to start kubelet.service: Unit kubelet.service is masked." and nothing starts kubelet at boot.',
    fix: 'systemctl unmask kubelet.service (or restore the unit file), systemctl daemon-reload, systemctl start kubelet.service.',
  },
  {
    id: 'systemd-unit-refused',
    title: 'systemd refuses to load the kubelet unit',
    severity: 'error',
    versions: 'all (systemd 239+)',
    messageId: '63f0e7f5bec24ef9a62da8d95c6d9692',
    meaning:
      'systemd read the unit file and its drop-ins and refused the unit: two ExecStart= commands without Type=oneshot (a drop-in that adds a command without resetting the old one with an empty "ExecStart="), no ExecStart= at all, a specifier this systemd does not know ("Failed to resolve unit specifiers … Invalid slot" drops the line and the rest of the unit file), a bad section header. PID 1 logs the reason when it loads the unit ("kubelet.service: Service has more than one ExecStart= setting, which is only allowed for Type=oneshot services. Refusing.") and every start fails with "Unit kubelet.service has a bad unit file setting." (or "failed to load properly"); kubelet never runs and systemd does not retry.',
    fix: 'Correct the file and line named in the finding (`systemd-analyze verify kubelet.service` shows the same), then systemctl daemon-reload and systemctl start kubelet.service.',
  },
  {
    id: 'systemd-environment-file-missing',
    title: 'A required EnvironmentFile= of the kubelet unit does not exist',
    severity: 'error',
    versions: 'all (systemd 239+)',
    messageId: '7e75f50b3d9c4ac197fc561bca67655e',
    meaning:
      'systemd loads every EnvironmentFile= without a "-" before it spawns any command of the unit. A missing one fails the start before ExecStartPre= (so node-check in kubelet\'s ExecStartPre never runs): the journal shows "Failed to load environment files: No such file or directory", then "Failed to run \'start-pre\' task" (systemd >= 255: "Failed to spawn ..."), then "Failed with result \'resources\'", and the file is not named. systemd retries every RestartSec=. node-check-precheck.service reports it from outside the unit.',
    fix: 'Restore the file (on OpenShift: /etc/node-sizing.env comes from the machine config or kubelet-auto-node-size), or make it optional with EnvironmentFile=-<path> in a drop-in when kubelet does not need it; then systemctl daemon-reload.',
  },
  {
    id: 'systemd-environment-file-unreadable',
    title: 'A required EnvironmentFile= of the kubelet unit cannot be loaded',
    severity: 'error',
    versions: 'all (systemd 239+)',
    messageId: 'bbef80499b68413e88666abed249be72',
    meaning:
      'As for a missing environment file, but the file exists and systemd cannot read it (a directory, permissions, an SELinux label): "Failed to load environment files: <error>" and result \'resources\' before any command of the unit runs.',
    fix: 'Make the file a readable regular file with the right SELinux label (restorecon -v <path>).',
  },
  {
    id: 'systemd-exec-missing',
    title: "ExecStart='s executable does not exist",
    severity: 'error',
    versions: 'all (systemd)',
    messageId: 'e2878292c5694affb2c2d0956b0e66cd',
    meaning:
      'systemd forks, cannot execute the binary and records status=203/EXEC: "Failed to locate executable <path>: No such file or directory" (systemd 250+; 239 only "Failed at step EXEC spawning <path>: No such file or directory"), "Main process exited, code=exited, status=203/EXEC", "Failed with result \'exit-code\'". Kubelet never runs; systemd retries every RestartSec=.',
    fix: 'Install the package that ships the binary (kubelet, kubenswrapper on OpenShift) or correct ExecStart=.',
  },
  {
    id: 'systemd-exec-not-executable',
    title: "ExecStart='s executable cannot be executed",
    severity: 'error',
    versions: 'all (systemd)',
    messageId: 'de3e8ffa6b3b4d49bccc1e186a7c1313',
    meaning:
      'The binary exists but cannot be executed (no execute bit, a noexec mount, a directory, another CPU architecture, a missing ELF loader or "#!" interpreter): status=203/EXEC with "Permission denied", "Exec format error" or "No such file or directory" in systemd\'s "Failed at step EXEC spawning" line.',
    fix: 'chmod +x, remount without noexec, install the binary built for this machine, or install its interpreter.',
  },
  {
    id: 'systemd-exec-argument-list-too-long',
    title: "ExecStart='s command line and environment are too long to execute",
    severity: 'error',
    versions: 'all (systemd, Linux 4.18+; independent of the kubelet version)',
    messageId: 'bfe3543429a14bafa58cab6ded4f5e25',
    meaning:
      'systemd expands ExecStart= ($VAR, ${VAR}) and passes the result and the unit\'s environment to execve(2). Linux refuses, with E2BIG, any single argument or environment string longer than 32 pages (131072 bytes with 4 KiB pages, as on every x86_64 and s390x kernel; up to 2 MiB with 64 KiB pages), and everything together beyond a quarter of the stack limit, never more than 6 MiB (fs/exec.c). systemd then logs "Failed at step EXEC spawning <path>: Argument list too long", "Main process exited, code=exited, status=203/EXEC", "Failed with result \'exit-code\'", and kubelet never runs; systemd retries every RestartSec=. node-check decides only what holds on every kernel and stack limit; in between (a string of 128 KiB-2 MiB on aarch64 or ppc64le, a total over 128 KiB) it answers "cannot tell".',
    fix: 'Find the variable that is huge or expanded many times (Environment=, EnvironmentFile=, a drop-in) and shorten it; pass large data through a file (kubelet --config) instead of the command line; then systemctl daemon-reload.',
  },
  {
    id: 'systemd-wrapped-kubelet-missing',
    title: 'The kubelet binary behind a wrapper does not exist',
    severity: 'warning',
    versions: 'all',
    messageId: '4576aec823cb48ec936c7d0bc130230c',
    meaning:
      'ExecStart= runs a wrapper (OpenShift: /usr/local/bin/kubenswrapper) that then executes kubelet, and kubelet\'s binary is missing. systemd starts the wrapper fine; the wrapper\'s own exec fails with its own text and exit status (not 203/EXEC), which node-check does not model, so it reports "cannot tell" rather than a text.',
    fix: 'Install the kubelet binary named in ExecStart= (on RHEL workers: the openshift-hyperkube / kubelet RPM of the release).',
  },
  {
    id: 'host-cgroup-v1',
    title: 'Kubelet refuses to start on a cgroup v1 host',
    severity: 'error',
    versions: '1.31+ with failCgroupV1: true (the default from 1.35)',
    messageId: 'f00ea816136c4af6926f6b3feb876190',
    meaning:
      'ValidateKubeletConfiguration rejects a cgroup v1 host when failCgroupV1 is true: "failed to validate kubelet configuration, error: kubelet is configured to not run on a host using cgroup v1. cgroup v1 support is in maintenance mode" (1.31-1.34) or "... is unsupported and will be removed in a future release" (1.35+), exit status 1.',
    fix: 'Boot with the unified cgroup hierarchy (systemd.unified_cgroup_hierarchy=1), or set failCgroupV1: false while the kubelet version still supports cgroup v1.',
  },
] as const satisfies readonly FindingKind[];
