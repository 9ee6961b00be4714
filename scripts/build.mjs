// Bundles the CLI into one CommonJS file and installs the launcher next to it (README "Cost on
// kubelet's start path": preflight is on kubelet's start path). dist/node-check.cjs is what users run; it compiles
// dist/node-check.bundle.cjs from V8's code cache (src/launcher/launcher.cjs). Beside the bundle:
// its source map (read only under `node --enable-source-maps`, never on kubelet's start path) and
// THIRD_PARTY_LICENSES with bundled-packages.json, built from what esbuild actually bundled.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { bundledPackages, thirdPartyLicensesText } from './third-party-licenses.mjs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const repo = new URL('..', import.meta.url).pathname;
const dist = new URL('../dist/', import.meta.url).pathname;
const bundle = `${dist}node-check.bundle.cjs`;
mkdirSync(dist, { recursive: true });
// The ESM bundle of earlier builds (before the launcher), and code caches of earlier bundles,
// would otherwise linger in dist/.
rmSync(`${dist}node-check.mjs`, { force: true });
for (const name of readdirSync(dist)) if (name.endsWith('.v8cache')) rmSync(`${dist}${name}`, { force: true });

// Under the launcher (vm.Script, global scope) `module` is undefined and the script's value is
// the wrapper function; run by Node's own loader, the file calls it.
const SELF_WRAPPER_OPEN = '(typeof module==="object"&&require.main===module?f=>f(exports,require,module,__filename,__dirname):f=>f)((function(exports,require,module,__filename,__dirname){';

const { metafile } = await build({
  absWorkingDir: repo,
  entryPoints: [new URL('../src/cli/main.ts', import.meta.url).pathname],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  // Licence comments go to a side file, folded into THIRD_PARTY_LICENSES below.
  legalComments: 'external',
  // 'linked': the bundle names its map, which Node reads only under --enable-source-maps.
  sourcemap: 'linked',
  metafile: true,
  // yargs does createRequire(import.meta.url); in CommonJS that is the bundle's own URL, made
  // when first asked for (node:url's pathToFileURL is ~0.3 ms that preflight does not need).
  define: { NODE_CHECK_VERSION: JSON.stringify(version), 'import.meta.url': '__ncImportMeta.url' },
  // The bundle is its own CommonJS wrapper, as Module.wrap would make it: the launcher compiles
  // the file as read (latin1: esbuild writes ASCII), with no 1 MB concatenated copy (start-path cost:
  // -1 MB RSS, -400 page faults). Run directly (`node node-check.bundle.cjs`, as under
  // --enable-source-maps to read a crash) it calls itself. In the banner, so the map counts it.
  banner: { js: `${SELF_WRAPPER_OPEN}var __ncImportMeta={get url(){return require('node:url').pathToFileURL(__filename).href}};` },
  footer: { js: '}))' },
  logLevel: 'warning',
});

if (/[^\x00-\x7f]/.test(readFileSync(bundle, 'latin1'))) throw new Error(`${bundle}: not ASCII, but the launcher reads it as latin1`);

const legalFile = `${bundle}.LEGAL.txt`;
const legalComments = existsSync(legalFile) ? readFileSync(legalFile, 'utf8') : '';
rmSync(legalFile, { force: true });
const packages = bundledPackages(Object.keys(metafile.inputs), repo);
writeFileSync(`${dist}THIRD_PARTY_LICENSES`, thirdPartyLicensesText(packages, legalComments));
writeFileSync(`${dist}bundled-packages.json`, `${JSON.stringify(packages.map(({ name, version, license }) => ({ name, version, license })), null, 2)}\n`);

const id = createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 16);
const launcher = readFileSync(new URL('../src/launcher/launcher.cjs', import.meta.url), 'utf8');
if (!launcher.includes("const BUNDLE_ID = 'dev';")) throw new Error('src/launcher/launcher.cjs: BUNDLE_ID placeholder not found');
if (!launcher.includes("const VERSION = 'dev';")) throw new Error('src/launcher/launcher.cjs: VERSION placeholder not found');
writeFileSync(`${dist}node-check.cjs`, launcher.replace("const BUNDLE_ID = 'dev';", `const BUNDLE_ID = '${id}';`).replace("const VERSION = 'dev';", `const VERSION = ${JSON.stringify(version)};`));
chmodSync(`${dist}node-check.cjs`, 0o755);

// The man page, from the same command table (scripts/gen-man.mjs): dist/node-check.1.
await import('./gen-man.mjs');
// The shell completions the RPM installs, as `node-check completion bash|zsh` prints them.
await import('./gen-completions.mjs');
