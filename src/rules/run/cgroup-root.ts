/**
 * cgroupRoot (--cgroup-root): NewContainerManager validates it after swap
 * (pkg/kubelet/cm/container_manager_linux.go: "Check if Cgroup-root actually exists on the node",
 * with cgroupsPerQOS), on the live host only (the cgroupRoots host fact, read by
 * src/discover/host-facts.ts at cgroupRootDir).
 */
import type { FindingKind } from '../../catalog/findings.js';
import { MODELLED_RANGE } from '../../kubelet/data/minors.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { atConfig, runFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-cgroup-root-missing',
    title: 'cgroupRoot (--cgroup-root) names a cgroup that does not exist on this host',
    severity: 'error',
    versions: `all (${MODELLED_RANGE})`,
    messageId: '2f8d1c7e5a3b4906b1e4c8a7d6f20b95',
    meaning:
      'With cgroupsPerQOS (the default), the container manager checks that the cgroup root exists in every cgroup hierarchy before "Started kubelet"; a missing one exits with status 1 ("failed to run Kubelet: invalid configuration: cgroup [\\"x\\"] has some missing paths: …", the paths in the host\'s order). Checked on the running host only.',
    fix: 'Create the cgroup before kubelet starts, or remove cgroupRoot / --cgroup-root.',
  },
] as const satisfies readonly FindingKind[];

/** The directory the cgroupfs driver's Validate checks first for `root` (pkg/kubelet/cm cgroup_v1_manager_linux.go / cgroup_v2_manager_linux.go). */
export function cgroupRootDir(root: string, cgroupVersion: 1 | 2): string {
  const relative = root.replace(/^\/+|\/+$/g, '');
  return cgroupVersion === 2 ? `/sys/fs/cgroup/${relative}` : `/sys/fs/cgroup/memory/${relative}`;
}

export const cgroupRootRule: Rule<typeof KINDS> = {
  id: 'run/cgroup-root',
  step: 'run:container-manager',
  kinds: KINDS,
  hostFacts: ['cgroupRoots'],
  decide(context) {
    const host = context.model.host;
    const cgroupRoot = context.configString('cgroupRoot') ?? '';
    if (!host || cgroupRoot === '' || cgroupRoot === '/' || context.effectiveConfig['cgroupsPerQOS'] === false || host.notChecked.some((n) => n.fact === 'cgroupRoots')) return PASS;
    const exists = host.facts.cgroupRoots?.[cgroupRoot];
    const driver = context.configString('cgroupDriver');
    if (driver === 'systemd' || exists === undefined) {
      return cannotTell(`cgroupRoot ${cgroupRoot}: ${driver === 'systemd' ? 'the systemd driver\'s cgroup names are not modelled' : 'whether its cgroup exists on this host was not read'}`, context.configPath);
    }
    if (exists) return PASS;
    return runFails(context, `invalid configuration: cgroup ["${cgroupRoot.replace(/^\/+|\/+$/g, '')}"] has some missing paths: ${cgroupRootDir(cgroupRoot, host.facts.cgroupVersion ?? 1)}`, {
      findingId: 'kubelet-cgroup-root-missing',
      message: `Kubelet 1.${context.minor} is given cgroupRoot ${cgroupRoot} (--cgroup-root), and that cgroup does not exist on this host: the container manager refuses it.`,
      remediation: `Create the ${cgroupRoot} cgroup before kubelet starts (kind's entrypoint does), or drop cgroupRoot.`,
      inexact: true,
      ...atConfig(context),
    });
  },
};
