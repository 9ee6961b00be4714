/**
 * Kubelet's Run() and RunKubelet (cmd/kubelet/app/server.go, 1.24-1.37), built from its rules
 * (src/rules/run/, one module a rule, listed in kubelet's order): the lock file, the in-tree cloud
 * provider, the API client, the client CA bundle, the CRI connection, --reserved-cpus against the
 * online CPUs, the reserved resources, evictionHard, the container manager (swap, cgroupRoot, the
 * CPU manager), --node-ip, and NewMainKubelet's checks (cloud provider, serving certificate, the
 * user namespace manager). Host
 * facts are read only for the live root: with another root they are listed as not checked and
 * never change the answer. After "Started kubelet", protectKernelDefaults (kernel tunables) is the
 * last fatal check (postStartStep, src/rules/post-start/).
 */
import type { StartCheck } from '../start-check.js';
import { runRules } from '../../rules/rule.js';
import { RUN_RULES } from '../../rules/run/index.js';
import { POST_START_RULES } from '../../rules/post-start/index.js';

export const kubeletRunStep: StartCheck = {
  id: 'kubelet-run',
  title: 'Kubelet sets up the node (cloud provider, CRI, reserved resources, swap, --node-ip)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => runRules(context, RUN_RULES),
};

export const postStartStep: StartCheck = {
  id: 'kubelet-post-start',
  title: 'The container manager starts (protectKernelDefaults: kernel tunables)',
  stage: 'kubelet',
  appliesTo: () => true,
  run: (context) => runRules(context, POST_START_RULES),
};
