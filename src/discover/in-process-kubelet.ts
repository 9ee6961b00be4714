/**
 * Distributions that run kubelet inside another program, so that no unit's ExecStart= is a kubelet
 * command line. node-check does not model those programs: on such a node it answers "cannot tell"
 * and says which program runs kubelet and where its arguments are (docs/unverified.md), rather than
 * "unit kubelet.service not found" or "does not run kubelet".
 *
 * MicroK8s (canonical/microk8s, snap/snapcraft.yaml: the app daemon-kubelite runs
 * microk8s-resources/wrappers/run-kubelite-with-args, which sanitises the argument files and execs
 * "$SNAP/kubelite" with $SNAP_DATA/args/kubelite; that file names --kubelet-args-file=$SNAP_DATA/args/kubelet,
 * microk8s-resources/default-args/kubelite). snapd writes the app's unit as
 * /etc/systemd/system/snap.microk8s.daemon-kubelite.service (snapd 2.77: snap/info.go AppSecurityTag,
 * dirs/dirs.go SnapServicesDirUnder) with ExecStart=/usr/bin/snap run microk8s.daemon-kubelite
 * (snap/info.go launcherCommand); $SNAP_DATA is /var/snap/microk8s/current.
 */
import type { RootFs } from '../host/root-fs.js';
import type { ServiceModel } from '../model/service.js';

export interface InProcessKubelet {
  readonly distribution: 'MicroK8s';
  /** The unit that runs the program hosting kubelet. */
  readonly unit: string;
  /** The file on the node that shows it (the unit, or the kubelet argument file). */
  readonly evidence: string;
  /** Where kubelet's arguments are. */
  readonly kubeletArgs: string;
}

const MICROK8S_UNIT = 'snap.microk8s.daemon-kubelite.service';
const MICROK8S_UNIT_PATH = `/etc/systemd/system/${MICROK8S_UNIT}`;
const MICROK8S_KUBELET_ARGS = '/var/snap/microk8s/current/args/kubelet';
/** The launcher command snapd writes for the app (snap/info.go launcherCommand). */
const MICROK8S_LAUNCHER = ['/usr/bin/snap', 'run', 'microk8s.daemon-kubelite'];

/**
 * MicroK8s' kubelite, for a unit that runs no kubelet: the unit is the kubelite unit (or runs its
 * launcher command), or the unit is not on the node and MicroK8s' unit or kubelet argument file is.
 */
export function findInProcessKubelet(fs: RootFs, service: ServiceModel): InProcessKubelet | undefined {
  const microk8s = { distribution: 'MicroK8s', unit: MICROK8S_UNIT, kubeletArgs: MICROK8S_KUBELET_ARGS } as const;
  const argv = service.execStart?.argv;
  const isLauncher = argv !== undefined && MICROK8S_LAUNCHER.every((word, i) => argv[i] === word);
  if (service.fragmentPath !== undefined) return service.unitName === MICROK8S_UNIT || isLauncher ? { ...microk8s, evidence: service.fragmentPath } : undefined;
  for (const path of [MICROK8S_UNIT_PATH, MICROK8S_KUBELET_ARGS]) if (fs.stat(path).ok) return { ...microk8s, evidence: path };
  return undefined;
}
