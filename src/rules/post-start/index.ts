/** After "Started kubelet": the container manager's Start (pkg/kubelet/cm/container_manager_linux.go). */
import { kernelTunablesRule } from './kernel-tunables.js';

export const POST_START_RULES = [kernelTunablesRule] as const;
