/**
 * The CRI connection (cmd/kubelet/app/server.go run() → PreInitRuntimeService → cri-client
 * validateServiceConnection; fatal at start from 1.27). The decision is src/host-facts/check-host.ts;
 * the socket is a host fact, read on the live root only.
 */
import type { FindingKind } from '../../catalog/findings.js';
import { HOST_FINDING } from '../../host-facts/check-host.js';
import { hostVerdict } from '../host-verdict.js';
import { type Rule } from '../rule.js';

const KINDS = [
  {
    id: 'host-cri-socket-missing',
    title: 'The container runtime socket does not exist',
    severity: 'error',
    versions: 'fatal at start from 1.27',
    messageId: 'bb8e3700e4484ded8a6e78a049fbf1f2',
    meaning:
      'Kubelet 1.27+ calls the runtime once at start and exits on any error: "failed to run Kubelet: validate service connection: validate CRI v1 runtime API for endpoint \\"...\\": rpc error: code = Unavailable desc = connection error: ...". If the runtime is only slow to start this fixes itself on a later restart; if it stays down kubelet never starts. The exact gRPC wording varies.',
    fix: 'Start the container runtime (crio / containerd) and check that containerRuntimeEndpoint names the socket it listens on.',
  },
] as const satisfies readonly FindingKind[];

export const criSocketRule: Rule<typeof KINDS> = {
  id: 'run/cri-socket',
  step: 'run:cri',
  kinds: KINDS,
  inputs: { flags: { 'container-runtime-endpoint': 'the CRI connection (live root)' } },
  hostFacts: ['criSocket'],
  decide: (context) => hostVerdict(context, HOST_FINDING.criSocket, 'criSocket'),
};
