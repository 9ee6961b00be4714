// `npm start`: node-check's report of the bundled demo node, an OpenShift 4.16 Azure RHEL 8 worker
// whose acr-credential-provider plugin is missing (the upgrade failure node-check exists for).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const bundle = here('../dist/node-check.cjs');
if (!existsSync(bundle)) spawnSync(process.execPath, [here('./build.mjs')], { stdio: 'inherit' });

const args = ['check', '--root', here('../examples/ocp-4.16-azure-rhel8-worker'), '--kubelet-version', '1.28.7', ...process.argv.slice(2)];
console.log(`$ node-check ${args.join(' ')}\n`);
const { status } = spawnSync(process.execPath, [bundle, ...args], { stdio: 'inherit' });
console.log(
  status === 1
    ? '\n(demo) node-check exited 1 because this demo node is broken on purpose: kubelet would not start on it.'
    : `\n(demo) node-check exited ${status}.`,
);
