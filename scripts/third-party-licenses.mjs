// The third-party packages esbuild put into the bundle, and the THIRD_PARTY_LICENSES text that
// ships with it (the RPM's %license). The package list comes from esbuild's metafile, so it is
// exactly what the bundle contains: a dependency that is installed but tree-shaken away is not
// listed, and a new one cannot be forgotten. A bundled package without a licence file stops the
// build: its terms would otherwise ship unstated.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// node_modules/name or node_modules/@scope/name, the last (innermost) one in the path.
const PACKAGE_DIR = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;
const LICENCE_FILE = /^(licen[cs]e|copying|notice)([.-].*)?$/i;

/**
 * The bundled packages, sorted by name then version: { name, version, license, dir, licenceFiles }.
 * `inputs` are the keys of esbuild's metafile.inputs, relative to `workingDir`.
 */
export function bundledPackages(inputs, workingDir) {
  const dirs = new Set();
  for (const input of inputs) {
    const match = PACKAGE_DIR.exec(input);
    if (match) dirs.add(resolve(workingDir, match[1]));
  }
  const packages = [...dirs].map((dir) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFiles = readdirSync(dir).filter((name) => LICENCE_FILE.test(name)).sort();
    if (licenceFiles.length === 0) throw new Error(`${dir}: bundled, but has no LICENSE, COPYING or NOTICE file`);
    const license = typeof manifest.license === 'string' ? manifest.license : undefined;
    if (!license) throw new Error(`${join(dir, 'package.json')}: bundled, but has no SPDX "license"`);
    return { name: manifest.name, version: manifest.version, license, dir, licenceFiles };
  });
  return packages.sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

const RULE = '='.repeat(80);

/** THIRD_PARTY_LICENSES: a header, then per package its name, version, SPDX licence and licence texts. */
export function thirdPartyLicensesText(packages, legalComments) {
  const parts = [
    'node-check bundles the following third-party packages (from npm) into node-check.bundle.cjs.',
    'Each section names the package, its version and its licence (SPDX), followed by the text of',
    'the licence file(s) the package ships. node-check itself is Apache-2.0 (see LICENSE).',
    '',
    ...packages.map((p) => `  ${p.name} ${p.version} (${p.license})`),
    '',
  ];
  for (const p of packages) {
    parts.push(RULE, `${p.name} ${p.version} (${p.license})`, RULE);
    for (const file of p.licenceFiles) {
      parts.push(`--- ${file} ---`, '', readFileSync(join(p.dir, file), 'utf8').trimEnd(), '');
    }
  }
  if (legalComments.trim() !== '') {
    parts.push(RULE, 'Licence comments in the bundled sources (as esbuild extracted them)', RULE, '', legalComments.trimEnd(), '');
  }
  return `${parts.join('\n')}\n`;
}
