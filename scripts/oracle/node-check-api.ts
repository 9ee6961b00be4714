// What the oracle's scripts (scripts/oracle/*.mjs, through import-ts.mjs) use of node-check itself:
// the check the CLI runs, the host-fact discovery whose reads the judge records, and the node model
// (the judge gives kubelet the unit's environment from it).
export { checkNode } from '../../src/check-node.js';
export { discoverNode } from '../../src/discover/discover-node.js';
export { discoverHostFacts, NODE_HOST_IO, type HostIo } from '../../src/discover/host-facts.js';
export { HOST_FINDING } from '../../src/host-facts/check-host.js';
