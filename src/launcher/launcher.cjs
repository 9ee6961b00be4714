#!/usr/bin/env node
// node-check's launcher: the file users run. It compiles the bundle (node-check.bundle.cjs, next
// to it) from V8's code cache when it has one, which saves most of the bundle's compile time on
// kubelet's start path (Node 20 has no module.enableCompileCache). scripts/build.mjs copies it to
// dist/ and fills in BUNDLE_ID, a hash of the bundle: V8 itself only checks the source length.
//
// The cache is a file per command (each compiles different functions): in the bundle's directory
// for a build tree, in /var/cache/node-check for an install under /usr. It is only read from and
// written to a directory, and a file, owned by root or by this user and writable by nobody else;
// anything else, or a cache V8 rejects, means a plain compile (and a rewrite where allowed).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const BUNDLE_ID = 'dev';
const VERSION = 'dev';

// `--version` alone needs no bundle at all (start-path cost); the bundle prints the same line.
if (process.argv.length === 3 && process.argv[2] === '--version' && VERSION !== 'dev') {
  process.stdout.write(`${VERSION}\n`);
  return;
}
const bundle = path.join(__dirname, 'node-check.bundle.cjs');
const cacheDir = __dirname.startsWith('/usr/') ? '/var/cache/node-check' : __dirname;
// One cache per command (bounded: anything else shares 'default').
const COMMANDS = ['check', 'preflight', 'serve', 'fallback', 'explain', 'completion'];
const command = COMMANDS.includes(process.argv[2]) ? process.argv[2] : 'default';
const cacheFile = path.join(cacheDir, `node-check.${BUNDLE_ID}.${command}.${process.version}-${process.arch}.v8cache`);
const euid = typeof process.geteuid === 'function' ? process.geteuid() : 0;

function trusted(stat) {
  return (stat.uid === 0 || stat.uid === euid) && (stat.mode & 0o022) === 0;
}

function safeDir(dir) {
  try {
    const stat = fs.lstatSync(dir);
    return stat.isDirectory() && trusted(stat);
  } catch {
    return false;
  }
}

function readCache() {
  if (!safeDir(cacheDir)) return undefined;
  let fd;
  try {
    fd = fs.openSync(cacheFile, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || !trusted(stat) || stat.size > 64 * 1024 * 1024) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// Test-only crash points, as src/host/kill-points.ts (the launcher cannot import the bundle's modules).
const killAt = process.env.NODE_CHECK_TEST_KILL_AT;
function killPoint(name) {
  if (killAt === 'list') process.stderr.write(`node-check-kill-point: ${name}\n`);
  else if (killAt !== undefined && killAt === name) process.kill(process.pid, 'SIGKILL');
}

/** Temp files of this cache left by a writer that was killed (its pid is gone). */
function removeStaleTemps() {
  const prefix = `${path.basename(cacheFile)}.`;
  for (const name of fs.readdirSync(cacheDir)) {
    const match = name.startsWith(prefix) ? /^(\d+)\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (!match) continue;
    try {
      process.kill(Number(match[1]), 0);
      continue; // a live writer's
    } catch (error) {
      if (error.code === 'EPERM') continue;
    }
    fs.rmSync(path.join(cacheDir, name), { force: true });
  }
}

function writeCache(data) {
  try {
    if (!safeDir(cacheDir)) {
      // Only the system cache directory is created, and only by root under a safe /var/cache.
      if (cacheDir !== '/var/cache/node-check' || euid !== 0 || !safeDir('/var/cache')) return;
      fs.mkdirSync(cacheDir, { mode: 0o755 });
      if (!safeDir(cacheDir)) return;
    }
    removeStaleTemps();
    const temp = `${cacheFile}.${process.pid}.tmp`;
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
    try {
      try {
        killPoint('write:v8cache:temp-created');
        if (fs.writeSync(fd, data) !== data.length) throw new Error('short write');
      } finally {
        fs.closeSync(fd);
      }
      killPoint('write:v8cache:temp-written');
      fs.renameSync(temp, cacheFile);
      killPoint('write:v8cache:renamed');
    } catch (error) {
      // A full disk: no empty or partial temp file is left behind (test/hostile/write-destinations.test.ts).
      fs.rmSync(temp, { force: true });
      throw error;
    }
  } catch {
    // A cache is an optimisation: never a reason to fail.
  }
}

// No optimising compiler: a run lasts a tenth of a second, and TurboFan's background jobs cost
// about 3 MB of peak RSS there for no gain in time. A young generation that does not grow: V8
// doubled it up to 32 MB under serve's steady allocation (measured with `npm run bench`).
// Set before the bundle is compiled: V8 keys its code cache to the flags.
//
// Node's own code cache for its built-in modules is keyed to the flags too: a built-in first
// loaded after this line compiles from source (node:net 1.4 ms instead of 0.4). The start path
// loads none but node:process, which the yaml package requires by name: it is loaded first.
// (Output goes to the descriptors directly, src/cli/stdio.ts, so net and tty are not needed.)
require('node:process');
/**
 * v8.setFlagsFromString is this binding's setFlagsFromString; node:v8 itself loads Node's whole
 * stream stack (its heap-snapshot streams), ~8 M instructions of preflight's 266 M that nothing
 * else on the start path needs. process.binding('v8') is allow-listed in Node 20 and warns DEP0111
 * on every use, silenced for this one call (as src/host/spawn-detached.ts does for process_wrap).
 * Anything unexpected (a Node without it) falls back to node:v8.
 */
function setV8Flags(flags) {
  const quiet = process.noDeprecation;
  try {
    process.noDeprecation = true;
    const binding = process.binding('v8');
    if (typeof binding.setFlagsFromString === 'function') return binding.setFlagsFromString(flags);
  } catch {
    // Below.
  } finally {
    process.noDeprecation = quiet;
  }
  require('node:v8').setFlagsFromString(flags);
}
setV8Flags('--no-opt --semi-space-growth-factor=1');
const cachedData = readCache();
// The bundle is already wrapped as a CommonJS module (scripts/build.mjs), and ASCII.
const script = new vm.Script(fs.readFileSync(bundle, 'latin1'), { filename: bundle, cachedData });
if (cachedData === undefined || script.cachedDataRejected) {
  // After the command ran, so that the functions it compiled lazily are in the cache too; serve
  // never exits on its own, so a command still running after 3 s (its first check done) writes it then.
  let written = false;
  const writeOnce = () => {
    if (!written) writeCache(script.createCachedData());
    written = true;
  };
  process.once('exit', writeOnce);
  setTimeout(writeOnce, 3000).unref();
}
const bundleModule = { exports: {}, filename: bundle, id: bundle, loaded: false };
script.runInThisContext().call(bundleModule.exports, bundleModule.exports, require, bundleModule, bundle, __dirname);
