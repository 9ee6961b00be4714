/**
 * The user namespace manager, last in NewMainKubelet before it returns (pkg/kubelet/kubelet.go
 * "create user namespace manager: %w", 1.30-1.37, UserNamespacesSupport on): the "kubelet" user's
 * lookup (with cgo or without: the binary's linkage decides, src/model/node.ts kubeletLinkage; without
 * it, the releases' cgo build), getsubids on kubelet's PATH, maxPods against the default ranges. The decision is
 * src/kubelet/node-setup/user-namespaces.ts; discovery reads /etc/passwd and the getsubids
 * candidates (src/discover/discover-node.ts).
 */
import type { FindingKind } from '../../catalog/findings.js';
import { nodePathKey } from '../../credentials/registration.js';
import { KUBELET_GO_TOOLCHAINS } from '../../kubelet/data/go-toolchain.js';
import { KUBELET_CONFIG_DEFAULTS } from '../../kubelet/data/kubelet-config-defaults.js';
import { NEWEST_MODELLED_MINOR } from '../../kubelet/data/minors.js';
import { goSprintf, RUN_WRAP, wrapStepError } from '../../kubelet/data/start-sequence.js';
import { checkUserNamespaceManager, looksUpKubeletUser, PASSWD_PATH } from '../../kubelet/node-setup/user-namespaces.js';
import { cannotTell, PASS } from '../../model/verdict.js';
import { kubeletFails, type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'kubelet-user-namespace-manager-failed',
    title: 'The user namespace manager cannot look up the kubelet user, its getsubids, or cover maxPods',
    severity: 'error',
    versions: `1.30-1.${NEWEST_MODELLED_MINOR} (UserNamespacesSupport on; by default from 1.33)`,
    messageId: 'cde2f55f15b94864ad7c8bd559d03897',
    meaning:
      'Last in NewMainKubelet, before "Started kubelet", kubelet looks the user "kubelet" up. A kubelet built without cgo reads /etc/passwd itself, and a missing file exits with status 1 ("failed to run Kubelet: failed to create kubelet: create user namespace manager: kubelet mappings: open /etc/passwd: no such file or directory"); a cgo build (the releases) asks glibc, which takes a missing file as no such user. When the user exists, kubelet runs getsubids from its PATH, and exits if there is none ("exec: \\"getsubids\\": executable file not found in $PATH"). Without the user, the default ranges cover at most 65535 pods.',
    fix: 'Restore /etc/passwd; with a "kubelet" user, install getsubids (shadow-utils-subid, or uidmap on Debian) and give the user subordinate IDs, or remove the user; keep maxPods at 65535 or less.',
  },
] as const satisfies readonly FindingKind[];

export const userNamespacesRule: Rule<typeof KINDS> = {
  id: 'run/user-namespaces',
  step: 'run:create-kubelet',
  kinds: KINDS,
  decide(context) {
    if (!looksUpKubeletUser(context.minor)) return PASS;
    const toolchain = KUBELET_GO_TOOLCHAINS[context.minor];
    const maxPods = context.effectiveConfig['maxPods'];
    const userns = checkUserNamespaceManager({
      gateOn: context.gateEnabled('UserNamespacesSupport'),
      // The binary shows how it was linked; without it, the releases' build: hack/lib/golang.sh
      // (1.24-1.37) leaves kubelet out of KUBE_STATIC_BINARIES, so it is built with cgo.
      lookup: context.model.kubeletLinkage === 'static' ? 'pure-go' : 'cgo',
      goMinors: { first: toolchain?.firstGo ?? 0, last: toolchain?.lastGo ?? 0 },
      passwd: context.model.files[nodePathKey(PASSWD_PATH)],
      // maxPods is an int32: an absent or zero value is defaulted (v1beta1 SetDefaults_KubeletConfiguration).
      maxPods: typeof maxPods === 'number' && maxPods !== 0 ? maxPods : (KUBELET_CONFIG_DEFAULTS.find((d) => d.field === 'maxPods')?.value as number),
      wrapped: (context.model.kubelet?.wrapper.length ?? 0) > 0,
      path: context.model.kubeletEnvironment['PATH'],
      hostRoot: context.model.root === '/',
    }, (path) => context.model.files[nodePathKey(path)]);
    if ('undecidable' in userns) return cannotTell(userns.undecidable, userns.path);
    if (userns.ok) return PASS;
    return kubeletFails(context, {
      findingId: 'kubelet-user-namespace-manager-failed',
      kubeletError: wrapStepError(context.minor, 'run:create-kubelet', userns.error) ?? goSprintf(RUN_WRAP, userns.error),
      message: `Kubelet 1.${context.minor} cannot create its user namespace manager (UserNamespacesSupport on): ${userns.error}.`,
      remediation: userns.error.includes('getsubids')
        ? 'Install getsubids (shadow-utils-subid, or uidmap on Debian) with subordinate IDs for the kubelet user, or remove the "kubelet" user from /etc/passwd.'
        : userns.error.includes('pods') ? 'Lower maxPods to 65535 or less.' : 'Restore /etc/passwd (every node has one; kubelet built without cgo reads it to look up the "kubelet" user).',
      path: userns.path,
    });
  },
};
