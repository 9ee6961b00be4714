// What the oracle's scripts (scripts/oracle/*.mjs, through import-ts.mjs) use of node-check itself:
// the check the CLI runs, and the host-fact discovery whose reads the judge records.
export { checkNode } from '../../src/check-node.js';
export { discoverHostFacts, NODE_HOST_IO, type HostIo } from '../../src/discover/host-facts.js';
export { HOST_FINDING } from '../../src/host-facts/check-host.js';
