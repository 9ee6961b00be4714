#!/usr/bin/env node
// Regenerates every table read from kubelet's tagged source, and adds a minor (docs/adding-a-minor.md).
//
//   npm run generate                    every generated table again, for the locked minors
//   npm run generate -- --minor 1.N     lock 1.N at its newest release tag, add its row to
//                                       src/kubelet/data/minors.ts, regenerate; then review
//
// A minor whose GA tag (v1.N.0) the Go module proxy does not serve stops the command with a
// message, and nothing is changed; so does a generator that cannot read its input (every file this
// command writes is put back as it was).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCK_PATH, lockedMinors, newestPatch, readLock, SourceError } from './kubernetes-source.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MINORS_TABLE = `${root}src/kubelet/data/minors.ts`;

/** The generators of per-minor tables, each reading every locked minor, and what they write. */
const GENERATORS = [
  { script: 'scripts/generate/kubelet-flags.mjs', writes: ['src/kubelet/data/kubelet-flags.generated.ts'] },
  { script: 'scripts/generate/feature-gates.mjs', writes: ['src/kubelet/data/feature-gates.generated.ts'] },
  { script: 'scripts/generate/kubelet-config-fields.mjs', writes: ['src/kubelet/data/kubelet-config-fields.ts'] },
];

/** The rows of src/kubelet/data/minors.ts: [{ minor, kubernetes }]. */
export function minorRows(text = readFileSync(MINORS_TABLE, 'utf8')) {
  return [...text.matchAll(/^ {2}\{ minor: (\d+), kubernetes: '(v1\.\d+\.\d+)' \},$/gm)].map((m) => ({ minor: Number(m[1]), kubernetes: m[2] }));
}

/** minors.ts with a row for `minor` at `version` after the last row. */
export function withMinorRow(text, minor, version) {
  const rows = minorRows(text);
  const last = rows[rows.length - 1];
  if (!last || last.minor !== minor - 1) throw new SourceError(`src/kubelet/data/minors.ts: the newest row is 1.${last?.minor}; a new minor is 1.${(last?.minor ?? 0) + 1}`);
  const lastLine = `  { minor: ${last.minor}, kubernetes: '${last.kubernetes}' },\n`;
  return text.replace(lastLine, `${lastLine}  { minor: ${minor}, kubernetes: '${version}' },\n`);
}

function run(script, args = []) {
  execFileSync(process.execPath, [`${root}${script}`, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
}

function main(argv) {
  const minorArg = argv[0] === '--minor' ? argv[1] : undefined;
  if (argv.length > 0 && !/^1\.\d+$/.test(minorArg ?? '')) throw new SourceError('usage: generate.mjs [--minor 1.N]');
  const minor = minorArg ? Number(minorArg.slice(2)) : undefined;
  const paths = [LOCK_PATH, MINORS_TABLE, ...GENERATORS.flatMap((g) => g.writes.map((w) => `${root}${w}`))];
  const before = new Map(paths.map((p) => [p, readFileSync(p, 'utf8')]));
  try {
    if (minor !== undefined && !lockedMinors().includes(minor)) {
      // Only a release: v1.N.0 and its patches, never a pre-release (v1.N.0-rc.1).
      const patch = newestPatch(minor);
      if (patch === undefined) throw new SourceError(`kubelet 1.${minor}: the Go module proxy serves no release tag v1.${minor}.P of k8s.io/kubernetes (1.${minor} is not released yet); nothing was changed`);
      run('scripts/generate/kubernetes-source.mjs', ['--lock', '--minor', `1.${minor}`]);
      writeFileSync(MINORS_TABLE, withMinorRow(readFileSync(MINORS_TABLE, 'utf8'), minor, readLock().minors[`1.${minor}`].kubernetes.version));
    }
    for (const generator of GENERATORS) run(generator.script);
  } catch (error) {
    for (const [path, text] of before) writeFileSync(path, text);
    if (error instanceof SourceError) throw error;
    throw new SourceError(`${error.message.split('\n')[0]}; every file was put back as it was`);
  }
  if (minor !== undefined) {
    process.stdout.write(
      [
        `1.${minor} is locked and its generated tables are written. Review before committing (docs/adding-a-minor.md):`,
        `  - the hand-kept rows of 1.${minor}: src/kubelet/data/credential-provider-traits.ts, and each rule whose source changed`,
        `    between the previous tag and this one (diff the two module directories: node scripts/generate/kubernetes-source.mjs --dir 1.N);`,
        '  - the fixtures: node scripts/fixtures/kubeadm.mjs --release-git … --release-ref … --lock;',
        '  - npm test: test/kubelet/minors.test.ts names every per-minor table that has no row for it.',
        '',
      ].join('\n'),
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    process.stderr.write(`generate: ${error.message}\n`);
    process.exit(1);
  }
}
