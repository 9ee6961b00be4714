// Generates src/kubelet/data/kubelet-flags.generated.ts: every flag kubelet's command registers, per
// minor, read from kubelet's source at the locked release tag (scripts/generate/kubernetes-source.mjs,
// kubernetes-source.lock.json). It follows NewKubeletCommand (cmd/kubelet/app/server.go) into
// KubeletFlags.AddFlags, AddKubeletConfigFlags and AddGlobalFlags (cmd/kubelet/app/options), the
// container runtime flags, component-base's logging flags (logs/api/v1 AddFlags, or logs.BindLoggingFlags
// in 1.24), klog's flags (logs.AddFlags), verflag and the help flag; the types of the Go flags kubelet
// re-registers come from cadvisor's and klog's source at the versions kubelet's go.mod selects (hashes
// from its go.sum). A registration it does not understand stops it; nothing is written then.
// test/kubelet/command-line/generated.test.ts fails when the committed file differs from this output.
//   node scripts/generate/kubelet-flags.mjs            write the file
//   node scripts/generate/kubelet-flags.mjs --stdout   print it
//   node scripts/generate/kubelet-flags.mjs --json 1.N print one minor's flags as JSON lines
//     (compare with the Go probe in scripts/generate/kubelet-flags-probe/, see its README)
import { readdirSync, readFileSync, writeFileSync, renameSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SourceError, dependencyDir, kubernetesDir, lockedMinors, lockedVersion, stagingDir } from './kubernetes-source.mjs';
import { GoSourceError, callArgs, closing, constString, findFunc, statements, stringConstants, text, tokenize } from './kubelet-flags-go.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const OUT = 'src/kubelet/data/kubelet-flags.generated.ts';
/** Minors whose flags are generated: every locked one. node-check models those src/kubelet/data/minors.ts lists. */
const MINORS = lockedMinors();

class FlagSourceError extends Error {}
const fail = (where, why) => {
  throw new FlagSourceError(`${where}: ${why}`);
};

// --- Go files of a package, as the linux/amd64 kubelet build selects them ------------------------

const BUILD_TAGS = new Set(['linux', 'amd64', 'unix', 'gc', 'cgo']);

function buildOk(src) {
  const header = src.slice(0, src.search(/^package /m));
  const goBuild = /^\/\/go:build (.+)$/m.exec(header)?.[1];
  if (goBuild !== undefined) return evalConstraint(goBuild);
  for (const m of header.matchAll(/^\/\/ \+build (.+)$/gm)) {
    if (!m[1].split(/\s+/).some((alt) => alt.split(',').every((t) => (t.startsWith('!') ? !tagOn(t.slice(1)) : tagOn(t))))) return false;
  }
  return true;
}
const tagOn = (t) => BUILD_TAGS.has(t) || /^go1\.\d+$/.test(t);
function evalConstraint(expr) {
  const js = expr.replace(/[A-Za-z0-9_.]+/g, (t) => String(tagOn(t)));
  if (!/^[truefals!&|() ]+$/.test(js)) throw new FlagSourceError(`build constraint ${expr}`);
  return Function(`return (${js})`)();
}

/** The package in `dir`: { files: [{ path, tokens }], consts } (build-selected, non-test files). */
const packages = new Map();
function goPackage(dir) {
  let pkg = packages.get(dir);
  if (pkg) return pkg;
  let names;
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go')).sort();
  } catch (error) {
    throw new FlagSourceError(`cannot read ${dir}: ${error.message}`);
  }
  const files = [];
  const consts = new Map();
  for (const name of names) {
    const src = readFileSync(`${dir}/${name}`, 'utf8');
    if (!buildOk(src)) continue;
    const tokens = tokenize(src, `${dir}/${name}`);
    files.push({ path: `${dir}/${name}`, src, tokens });
    for (const [k, v] of stringConstants(tokens)) consts.set(k, v);
  }
  pkg = { dir, files, consts };
  packages.set(dir, pkg);
  return pkg;
}

function funcIn(pkg, name, receiverType) {
  const found = [];
  for (const file of pkg.files) {
    const fn = findFunc(file.tokens, name, receiverType);
    if (fn) found.push({ ...fn, file: file.path, pkg });
  }
  if (found.length !== 1) fail(pkg.dir, `${found.length} definitions of ${receiverType ? `(${receiverType}) ` : ''}${name}`);
  return found[0];
}

/** Import alias -> import path of one file. */
function imports(file) {
  const out = new Map();
  const t = file.tokens;
  for (let i = 0; i < t.length; i++) {
    if (t[i].v !== 'import') continue;
    const group = t[i + 1]?.v === '(' ? t.slice(i + 2, closing(t, i + 1)) : t.slice(i + 1, i + 3);
    for (const stmt of statements(group)) {
      const path = stmt.at(-1)?.k === 'str' ? stmt.at(-1).v : undefined;
      if (!path) continue;
      const alias = stmt.length === 2 ? stmt[0].v : path.split('/').at(-1).replace(/^v\d+$/, () => path.split('/').at(-2));
      out.set(alias, path);
    }
  }
  return out;
}

// --- KubeletConfiguration field paths (the JSON names of the v1beta1 API) ------------------------

function structTypes(files) {
  const structs = new Map();
  for (const src of files) {
    for (const m of src.matchAll(/^type (\w+) struct \{\n([\s\S]*?)\n\}/gm)) {
      const fields = new Map();
      for (const line of m[2].split('\n')) {
        const f = /^\t([A-Z]\w*)\s+(\S+)\s+`json:"([A-Za-z0-9]*)[,"]/.exec(line);
        if (f) fields.set(f[1], { json: f[3], type: f[2].replace(/^[*[\]]+/, '').replace(/^map\[[^\]]+\]/, '').replace(/^\w+\./, '') });
        // An embedded struct (`json:",inline"` or `json:""`): encoding/json makes its fields this struct's.
        const inline = /^\t(?:\w+\.)?(\w+)\s+`json:"(,inline)?"`/.exec(line);
        if (inline) fields.set(`inline:${inline[1]}`, { inline: inline[1] });
      }
      structs.set(m[1], fields);
    }
  }
  return structs;
}

function jsonPath(structs, start, goPath, where) {
  const out = [];
  let type = start;
  for (const [i, name] of goPath.entries()) {
    const fields = structs.get(type);
    const inlined = [...(fields?.values() ?? [])].filter((f) => f.inline).map((f) => structs.get(f.inline)?.get(name)).find(Boolean);
    const field = fields?.get(name) ?? inlined;
    if (!field) {
      // metav1.Duration's .Duration (and TimeOrMetaDuration's) is the value itself.
      if (name === 'Duration' && i > 0) break;
      fail(where, `no JSON name for ${[start, ...goPath].join('.')}`);
    }
    out.push(field.json);
    type = field.type;
  }
  return out.join('.');
}

// --- Flag registration code, interpreted ------------------------------------------------------

const PFLAG_TYPES = {
  Bool: 'bool', String: 'string', Duration: 'duration', Int32: 'int32', Int64: 'int64', Int: 'int',
  Uint64: 'uint64', Float64: 'float64', StringSlice: 'stringSlice',
};
const GO_FLAG_TYPES = { String: 'goString', Bool: 'goBool', Duration: 'goDuration', Int: 'goInt', Int64: 'goInt', Uint: 'goUint64', Uint64: 'goUint64', Float64: 'goOpaque', Var: 'goOpaque', Func: 'goOpaque' };

/** The value type of `fs.Var(<value>, ...)`: component-base cli/flag and pkg/util/flag types, and the logging API's. */
function varType(value, ctx, where) {
  const s = text(value);
  const by = [
    [/NewColonSeparatedMultimapStringString \(/, 'colonMultimapStringString'],
    [/NewLangleSeparatedMapStringString \(/, 'langleMapStringString'],
    [/NewMapStringStringNoSplit \(/, 'mapStringStringNoSplit'],
    [/NewMapStringString \(/, 'mapStringString'],
    [/NewMapStringBool \(/, 'mapStringBool'],
    [/^& \w+ \. IPVar \{/, 'ip'],
    [/^& \w+ \. ReservedMemoryVar \{/, 'reservedMemory'],
    [/^& \w+ \. RegisterWithTaintsVar \{/, 'taints'],
    [/^VerbosityLevelPflag \(|^& c \. Verbosity$/, 'verbosity'],
    [/^VModuleConfigurationPflag \(|^& c \. VModule$/, 'vmodule'],
    [/^& c \. Options \. (JSON|Text) \. InfoBufferSize$/, 'quantity'],
  ];
  for (const [re, type] of by) if (re.test(s)) return type;
  // `&x` where `x := cliflag.ConfigurationMap(...)` earlier in the function.
  if (value.length === 2 && value[0].v === '&' && ctx.locals.has(value[1].v) && /ConfigurationMap \(/.test(text(ctx.locals.get(value[1].v)))) return 'configurationMap';
  fail(where, `flag value type of ${s} is not known`);
}

function configFieldOf(tokens, ctx) {
  if (!ctx.config) return undefined;
  const t = tokens;
  for (let i = 0; i + 2 < t.length; i++) {
    if (t[i].v === '&' && t[i + 1].v === ctx.config.variable && t[i + 2].v === '.') {
      const path = [];
      let j = i + 2;
      while (t[j]?.v === '.' && t[j + 1]?.k === 'id') {
        path.push(t[j + 1].v);
        j += 2;
      }
      return jsonPath(ctx.structs, 'KubeletConfiguration', [...ctx.config.prefix, ...path], ctx.where);
    }
  }
  return undefined;
}

function flagOp(method, args, ctx) {
  const where = `${ctx.where} fs.${method}`;
  const str = (tokens) => constString(tokens, ctx.consts) ?? fail(where, `not a constant string: ${text(tokens)}`);
  const m = /^(Bool|String|Duration|Int32|Int64|Int|Uint64|Float64|StringSlice|)(Var)?(P)?$/.exec(method);
  // pflag's MarkDeprecated also hides the flag from --help.
  if (method === 'MarkDeprecated') return ctx.mark(str(args[0]), { deprecated: str(args[1]), hidden: true });
  if (method === 'MarkHidden') return ctx.mark(str(args[0]), { hidden: true });
  if (method === 'MarkShorthandDeprecated') return ctx.mark(str(args[0]), { shorthandDeprecated: str(args[1]) });
  if (method === 'AddFlagSet' || method === 'SetNormalizeFunc') return undefined;
  if (!m || (m[1] === '' && m[2] === undefined)) fail(where, 'not a flag registration this generator reads');
  const [, kind, isVar, isP] = m;
  const lead = isVar ? 1 : 0;
  const name = str(args[lead]);
  const shorthand = isP ? str(args[lead + 1]) : undefined;
  const type = kind === '' ? varType(args[0], ctx, where) : PFLAG_TYPES[kind];
  const configField = isVar ? configFieldOf(args[0], ctx) : undefined;
  return ctx.add({ name, type, ...(shorthand ? { shorthand } : {}), ...(type === 'bool' ? { noOptDefVal: 'true' } : {}), ...(configField ? { configField } : {}) });
}

// (Only what NewKubeletCommand does outside its RunE: printing usage. An assignment through Lookup is not read-only.)
const READ_ONLY_METHODS = new Set(['FlagUsagesWrapped', 'FlagUsages']);

/** A deferred block of AddFlags / AddKubeletConfigFlags: the two shapes kubelet has. */
function runDeferred(stmt, ctx) {
  const body = stmt.slice(stmt.findIndex((t) => t.v === '{') + 1, closing(stmt, stmt.findIndex((t) => t.v === '{')));
  const s = text(body);
  const locals = new Map();
  for (const inner of statements(body)) {
    if (inner[1]?.v === ':=' && constString(inner.slice(2), ctx.consts) !== undefined) locals.set(inner[0].v, constString(inner.slice(2), ctx.consts));
  }
  if (/if len \( f \. Deprecated \) > 0 \{ f \. Hidden = false \}/.test(s)) {
    for (const flag of ctx.local) if (flag.deprecated) delete flag.hidden;
  } else if (/if notDeprecated \[ f \. Name \] \{ return \} f \. Deprecated = deprecated/.test(s) && locals.has('deprecated')) {
    const map = /notDeprecated := map \[ string \] bool \{(.*?)\}/.exec(s)?.[1] ?? fail(ctx.where, 'notDeprecated map');
    const keep = new Set([...map.matchAll(/"([^"]+)" : true/g)].map((x) => x[1]));
    for (const flag of ctx.local) if (!keep.has(flag.name)) flag.deprecated = locals.get('deprecated');
  } else fail(ctx.where, `deferred code not understood (${[...locals.keys()]}): ${s.slice(0, 300)}`);
  if (!/mainfs \. AddFlagSet \( fs \)/.test(s)) fail(ctx.where, 'deferred code does not add its flag set');
}

/**
 * Interpret one function body: `fs.X(...)` calls on the flag-set parameters register flags; calls
 * that pass a flag set are followed into their definition (`follow`); the rest must not touch flags.
 */
function interpret(fn, ctx, follow) {
  const local = [];
  const c = {
    ...ctx,
    where: `${fn.file}:${fn.line}`,
    consts: new Map([...fn.pkg.consts, ...(ctx.extraConsts ?? [])]),
    locals: new Map(),
    local,
    add: (flag) => local.push({ ...flag, group: flag.group ?? ctx.group }),
    mark: (name, attrs) => {
      const flag = local.find((f) => f.name === name) ?? fail(c.where, `${name} is marked but not registered here`);
      Object.assign(flag, attrs);
    },
  };
  const flagSets = new Set(ctx.flagSets);
  const deferred = [];
  const run = (body) => {
    for (let stmt of statements(body)) {
      if (stmt[0].v === '_' && stmt[1]?.v === '=') stmt = stmt.slice(2); // `_ = fs.MarkDeprecated(...)`
      const s = text(stmt);
      if (stmt[0].v === 'defer') {
        deferred.push(stmt);
        continue;
      }
      if (stmt[0].v === 'if') {
        const open = stmt.findIndex((t) => t.v === '{');
        const cond = text(stmt.slice(1, open));
        const touches = stmt.some((t) => flagSets.has(t.v));
        if (!touches) continue;
        // logs: "We only register them if "json" is a valid format": kubelet's main imports the JSON format.
        if (/[Gg]et \( "json" \)/.test(cond)) {
          if (ctx.jsonFormat) run(stmt.slice(open + 1, closing(stmt, open)));
          continue;
        }
        fail(c.where, `conditional registration not understood: ${cond}`);
      }
      if (stmt[1]?.v === ':=' || stmt[1]?.v === '=' || stmt[0].v === 'const') {
        const [name, value] = stmt[0].v === 'const' ? [stmt[1].v, stmt.slice(3)] : [stmt[0].v, stmt.slice(2)];
        const str = constString(value, c.consts);
        if (str !== undefined) c.consts.set(name, str);
        c.locals.set(name, value);
        if (/^(pflag \. NewFlagSet|flag \. CommandLine|pflag \. CommandLine)/.test(text(value))) flagSets.add(name);
        if (stmt[1]?.v === ':=') continue;
      }
      if (stmt[0].k === 'id' && flagSets.has(stmt[0].v) && stmt[1]?.v === '.' && stmt[3]?.v === '(') {
        flagOp(stmt[2].v, callArgs(stmt, 3).args, c);
        continue;
      }
      // A flag set used only to read it (usage text, parse results) registers nothing.
      const uses = stmt.flatMap((t, i) => (flagSets.has(t.v) ? [stmt[i + 1]?.v === '.' ? stmt[i + 2]?.v : ''] : []));
      if (uses.every((m) => READ_ONLY_METHODS.has(m))) continue;
      const paren = stmt.findIndex((t) => t.v === '(');
      if (paren < 1 || closing(stmt, paren) !== stmt.length - 1) fail(c.where, `statement not understood: ${s}`);
      follow(stmt.slice(0, paren), callArgs(stmt, paren).args, c, flagSets);
    }
  };
  run(fn.body);
  for (const stmt of deferred) runDeferred(stmt, c);
  return local;
}

// --- One minor -------------------------------------------------------------------------------

function goFlagDefinitions(dirs, consts) {
  // name -> Set(type) of every Go flag defined with the standard flag package in these trees.
  const defs = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const path = `${dir}/${entry}`;
      if (statSync(path).isDirectory()) {
        if (entry !== 'cmd' && entry !== 'vendor' && entry !== 'testdata' && !entry.startsWith('.')) walk(path);
        continue;
      }
      if (!entry.endsWith('.go') || entry.endsWith('_test.go')) continue;
      const src = readFileSync(path, 'utf8');
      if (!/\bflag\.\w+\(/.test(src) || !buildOk(src)) continue;
      const tokens = tokenize(src, path);
      const fileConsts = new Map([...consts, ...stringConstants(tokens)]);
      for (let i = 0; i + 3 < tokens.length; i++) {
        if (tokens[i].v !== 'flag' || tokens[i + 1].v !== '.' || tokens[i + 3]?.v !== '(' || tokens[i - 1]?.v === '.') continue;
        const m = /^(String|Bool|Duration|Int|Int64|Uint|Uint64|Float64|Func|)(Var)?$/.exec(tokens[i + 2].v);
        if (!m || (m[1] === '' && !m[2])) continue;
        const { args } = callArgs(tokens, i + 3);
        const name = constString(args[m[2] ? 1 : 0] ?? [], fileConsts);
        if (name === undefined) continue;
        const type = GO_FLAG_TYPES[m[1] || 'Var'];
        defs.set(name, new Set([...(defs.get(name) ?? []), type]));
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return defs;
}

export function readMinor(minor) {
  const k8s = kubernetesDir(minor);
  const componentBase = stagingDir(minor, 'component-base');
  const kubeletApi = stagingDir(minor, 'kubelet');
  const options = goPackage(`${k8s}/cmd/kubelet/app/options`);
  const app = goPackage(`${k8s}/cmd/kubelet/app`);
  const main = readFileSync(`${k8s}/cmd/kubelet/kubelet.go`, 'utf8');
  const jsonFormat = main.includes('"k8s.io/component-base/logs/json/register"');
  const structFiles = [`${kubeletApi}/config/v1beta1/types.go`, `${componentBase}/config/v1alpha1/types.go`, `${componentBase}/logs/api/v1/types.go`]
    .flatMap((p) => { try { return [readFileSync(p, 'utf8')]; } catch { return []; } });
  const structs = structTypes(structFiles);
  const cadvisorModule = (() => { try { return dependencyDir(minor, 'github.com/google/cadvisor'); } catch { return dependencyDir(minor, 'github.com/google/cadvisor/lib'); } })();
  let goFlags;
  const goFlagType = (name, where) => {
    goFlags ??= goFlagDefinitions([cadvisorModule], new Map());
    const types = goFlags.get(name);
    if (!types || types.size !== 1) fail(where, `Go flag ${name}: ${types ? [...types].join('/') : 'no'} definition in ${cadvisorModule}`);
    return [...types][0];
  };
  const pflagGlobalType = (name, where) => {
    for (const file of goPackage(`${k8s}/pkg/credentialprovider/azure`).files) {
      const m = new RegExp(`pflag\\.(String|Bool)\\("${name}"`).exec(file.src);
      if (m) return PFLAG_TYPES[m[1]];
    }
    fail(where, `pflag global ${name} not found`);
  };
  const dirOfImport = (file, alias) => {
    const path = imports(file).get(alias) ?? fail(file.path, `no import ${alias}`);
    if (path.startsWith('k8s.io/kubernetes/')) return `${k8s}/${path.slice('k8s.io/kubernetes/'.length)}`;
    if (path.startsWith('k8s.io/component-base/')) return `${componentBase}/${path.slice('k8s.io/component-base/'.length)}`;
    if (path.startsWith('github.com/google/cadvisor/')) return `${cadvisorModule}/${path.slice(`github.com/google/cadvisor/${cadvisorModule.includes('/lib@') ? 'lib/' : ''}`.length)}`;
    fail(file.path, `import ${path} is outside the trees this generator reads`);
  };
  const fileOf = (fn) => fn.pkg.files.find((f) => f.path === fn.file);

  const klogFlags = (logsPkg, where) => {
    // logs.AddFlags: the Go flags of packageFlags (klog.InitFlags or klogflags.Init, and log-flush-frequency),
    // without v, vmodule and log-flush-frequency (SkipLoggingConfigurationFlags); the others deprecated.
    const logsGo = logsPkg.files.find((f) => f.path.endsWith('/logs.go')) ?? fail(where, 'no logs.go');
    if (!/case "v", logsapi\.LogFlushFreqFlagName:|case "v":/.test(logsGo.src) || !/skipLoggingConfigurationFlags/.test(logsGo.src)) fail(logsGo.path, 'AddFlags switch not understood');
    let names;
    let initSrc;
    if (/klog\.InitFlags\(packageFlags\)/.test(logsGo.src)) {
      initSrc = readFileSync(`${dependencyDir(minor, 'k8s.io/klog/v2')}/klog.go`, 'utf8');
      const body = initSrc.slice(initSrc.indexOf('func InitFlags('), initSrc.indexOf('\n}\n', initSrc.indexOf('func InitFlags(')));
      names = [...body.matchAll(/flagset\.(\w+)\([^,"]*,?\s*"([^"]+)"/g)].map((x) => ({ name: x[2], type: GO_FLAG_TYPES[x[1].replace(/Var$/, '') || 'Var'] }));
    } else if (/klogflags\.Init\(packageFlags\)/.test(logsGo.src)) {
      const kf = readFileSync(`${logsPkg.dir}/klogflags/klogflags.go`, 'utf8');
      const cases = /switch f\.Name \{\s*case ((?:"[^"]+",?\s*)+):\s*fs\.Var\(f\.Value, f\.Name, f\.Usage\)/.exec(kf) ?? fail(`${logsPkg.dir}/klogflags/klogflags.go`, 'Init not understood');
      names = [...cases[1].matchAll(/"([^"]+)"/g)].map((x) => ({ name: x[1], type: 'goOpaque' }));
    } else fail(logsGo.path, 'packageFlags init not understood');
    const deprecatedText = /pf\.Deprecated = deprecated/.test(logsGo.src) ? logsPkg.consts.get('deprecated') ?? fail(logsGo.path, 'deprecated text') : undefined;
    return names
      .filter((f) => !['v', 'vmodule', 'log_flush_frequency', 'log-flush-frequency'].includes(f.name))
      .map((f) => ({ name: f.name.replace(/_/g, '-'), type: f.type, group: 'klog', ...(f.type === 'goBool' ? { noOptDefVal: 'true' } : {}), ...(deprecatedText ? { deprecated: deprecatedText } : {}) }));
  };

  const follow = (callee, args, ctx, flagSets) => {
    const c = text(callee);
    const where = ctx.where;
    const argText = args.map(text);
    const named = (fn, group, extra = {}) => interpret(fn, { ...ctx, ...extra, group, flagSets: new Set(fn.params.filter((p, i) => p && flagSets.has(argText[i]?.replace(/^& /, '')))) }, follow);
    let out;
    if (c === 'kubeletFlags . AddFlags') out = named(funcIn(options, 'AddFlags', 'KubeletFlags'), 'kf');
    else if (c === 'options . AddKubeletConfigFlags') {
      const fn = funcIn(options, 'AddKubeletConfigFlags');
      out = named(fn, 'kc', { config: { variable: fn.params[1], prefix: [] } });
    } else if (c === 'options . AddGlobalFlags') out = named(funcIn(options, 'AddGlobalFlags'), 'glob');
    else if (c === 'f . addOSFlags') out = named(funcIn(options, 'addOSFlags', 'KubeletFlags'), 'kf');
    else if (c === 'addContainerRuntimeFlags') out = named(funcIn(options, 'addContainerRuntimeFlags'), 'cro');
    else if (c === 'f . ContainerRuntimeOptions . AddFlags') {
      const dir = [`${k8s}/pkg/kubelet/config`, `${k8s}/cmd/kubelet/app/options`].find((d) => goPackage(d).files.some((f) => findFunc(f.tokens, 'AddFlags', 'ContainerRuntimeOptions')));
      out = named(funcIn(goPackage(dir), 'AddFlags', 'ContainerRuntimeOptions'), 'cro');
    } else if (/^(logsapi|logs) \. (AddFlags|BindLoggingFlags)$/.test(c) && argText.length === 2 && /^& c \. Logging$/.test(argText[0])) {
      const dir = dirOfImport(fileOf(funcIn(options, 'AddKubeletConfigFlags')), callee[0].v);
      const pkg = goPackage(dir);
      const entry = funcIn(pkg, callee[2].v);
      // logsapi.AddFlags only hands over to addFlags.
      const fn = /^addFlags \( c , fs \)$/.test(text(entry.body)) ? funcIn(pkg, 'addFlags') : entry;
      out = interpret(fn, { ...ctx, group: 'log', config: { variable: fn.params[0], prefix: ['Logging'] }, flagSets: new Set([fn.params[1]]) }, follow);
    } else if (c === 'logs . AddFlags' && argText[1] === 'logs . SkipLoggingConfigurationFlags ( )') {
      out = klogFlags(goPackage(dirOfImport(fileOf(funcIn(options, 'AddGlobalFlags')), 'logs')), where);
    } else if (c === 'verflag . AddFlags') {
      const src = readFileSync(`${dirOfImport(fileOf(funcIn(options, 'AddGlobalFlags')), 'verflag')}/verflag.go`, 'utf8');
      if (!/const versionFlagName = "version"/.test(src) || !/fs\.AddFlag\(flag\.Lookup\(versionFlagName\)\)/.test(src) || !/flag\.Lookup\(name\)\.NoOptDefVal = "true"/.test(src)) fail(where, 'verflag not understood');
      out = [{ name: 'version', type: 'version', noOptDefVal: 'true', group: 'glob' }];
    } else if (c === 'addCadvisorFlags' || c === 'addCredentialProviderFlags' || c === 'addLegacyCloudProviderCredentialProviderFlags') {
      const fn = funcIn(options, c);
      const group = c === 'addCadvisorFlags' ? 'cadv' : 'glob';
      const fnFile = fileOf(fn);
      const extraConsts = new Map();
      // 1.37+: cadvisor's flag names as constants of github.com/google/cadvisor/lib/cadvisorflags.
      for (const [alias] of imports(fnFile)) if (alias === 'cadvisorflags') for (const [k, v] of goPackage(dirOfImport(fnFile, alias)).consts) extraConsts.set(`${alias}.${k}`, v);
      out = interpret(fn, { ...ctx, group, extraConsts, flagSets: new Set([...fn.params.filter((p, i) => flagSets.has(argText[i])), 'local', 'global']) }, follow);
    } else if (/^(register|registerDeprecated|pflagRegister) \( global , local ,/.test(`${c} ( ${argText.join(' , ')}`)) {
      const str = (tokens) => constString(tokens, ctx.consts) ?? fail(where, `not a constant: ${text(tokens)}`);
      const goName = str(args[2]);
      const name = goName.replace(/_/g, '-');
      const type = c === 'pflagRegister' ? pflagGlobalType(goName, where) : goFlagType(goName, where);
      const deprecated = c === 'registerDeprecated' ? str(args[3]) : undefined;
      ctx.add({ name, type, ...(type === 'goBool' || type === 'bool' ? { noOptDefVal: 'true' } : {}), ...(deprecated ? { deprecated } : {}) });
      return;
    } else fail(where, `call not understood: ${c}(${argText.join(', ')})`);
    for (const flag of out) ctx.add({ ...flag, group: flag.group });
  };

  // NewKubeletCommand (cmd/kubelet/app/server.go) fills cleanFlagSet; nothing else reaches the parser.
  const command = funcIn(app, 'NewKubeletCommand');
  const all = interpret(command, { group: 'glob', structs, jsonFormat, flagSets: new Set(['cleanFlagSet']) }, follow);
  if (!/cleanFlagSet\.Parse\(args\)/.test(readFileSync(command.file, 'utf8'))) fail(command.file, 'kubelet no longer parses cleanFlagSet');
  const names = new Map();
  for (const flag of all) {
    flag.name = flag.name.replace(/_/g, '-'); // cliflag.WordSepNormalizeFunc on cleanFlagSet
    if (names.has(flag.name)) fail(`kubelet 1.${minor}`, `flag --${flag.name} registered twice`);
    names.set(flag.name, flag);
  }
  return [...names.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// --- The table --------------------------------------------------------------------------------

const FIELDS = ['name', 'type', 'group', 'deprecated', 'configField', 'shorthand', 'shorthandDeprecated', 'noOptDefVal', 'hidden'];
const key = (flag) => JSON.stringify(FIELDS.map((f) => flag[f] ?? null));

export function generate() {
  const perMinor = new Map();
  const versions = [];
  for (const minor of MINORS) {
    perMinor.set(minor, readMinor(minor));
    versions.push(lockedVersion(minor));
  }
  // Rows: one per flag and run of consecutive minors with identical attributes.
  const rows = [];
  const open = new Map();
  for (const minor of MINORS) {
    for (const flag of perMinor.get(minor)) {
      const k = key(flag);
      const row = open.get(k);
      if (row && row.until === minor - 1) row.until = minor;
      else {
        const attributes = Object.fromEntries(FIELDS.slice(1).filter((f) => flag[f] !== undefined).map((f) => [f, flag[f]]));
        const fresh = { name: flag.name, from: minor, until: minor, ...attributes };
        rows.push(fresh);
        open.set(k, fresh);
      }
    }
  }
  // Each deprecation message once (most are shared by dozens of flags).
  const messages = [...new Set(rows.map((r) => r.deprecated).filter(Boolean))].sort();
  // In the JSON text a deprecation is its message's index; kubeletFlagRows() puts the message back.
  const rowJson = (r) => (r.deprecated === undefined ? r : { ...r, deprecated: messages.indexOf(r.deprecated) });
  const order = (r) => `${r.name}\u0000${String(r.from).padStart(3, '0')}`;
  rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));
  const body = [
    '// GENERATED by scripts/generate/kubelet-flags.mjs from kubelet\'s source at the release tags pinned in',
    `// scripts/generate/kubernetes-source.lock.json (${versions.join(', ')}) — do not edit.`,
    '// Every flag NewKubeletCommand (cmd/kubelet/app/server.go) registers on the flag set it parses.',
    '',
    "export type KubeletFlagGroup = 'kf' | 'cro' | 'kc' | 'log' | 'glob' | 'klog' | 'cadv';",
    '',
    'export interface KubeletFlagRecord {',
    '  /** Normalized name (cliflag.WordSepNormalizeFunc: "_" → "-"). */',
    '  readonly name: string;',
    '  /** First and last kubelet minor (1.x) that registers the flag with these attributes. */',
    '  readonly from: number;',
    '  readonly until: number;',
    '  /** Value type as pflag sees it (see src/kubelet/command-line/flag-table.ts). */',
    '  readonly type: string;',
    '  /** kf KubeletFlags.AddFlags, cro container runtime options, kc AddKubeletConfigFlags, log component-base logging',
    '   * flags, glob help/version/credential provider, klog klog flags (logs.AddFlags), cadv cadvisor flags. */',
    '  readonly group: KubeletFlagGroup;',
    '  /** pflag deprecation message ("Flag --x has been deprecated, <message>"). */',
    '  readonly deprecated?: string;',
    '  /** KubeletConfiguration field (v1beta1 JSON path) the flag binds. */',
    '  readonly configField?: string;',
    '  readonly shorthand?: string;',
    '  readonly shorthandDeprecated?: string;',
    '  /** pflag NoOptDefVal: the flag does not take the next argument. */',
    '  readonly noOptDefVal?: string;',
    '  readonly hidden?: boolean;',
    '}',
    '',
    `/** The tag each minor's rows were read at: every locked minor (node-check models those src/kubelet/data/minors.ts lists). */`,
    `export const KUBELET_FLAG_SOURCES: Readonly<Record<number, string>> = ${JSON.stringify(Object.fromEntries(MINORS.map((m, i) => [m, versions[i]])))};`,
    '',
    `const DEPRECATED = [\n${messages.map((m) => `  ${JSON.stringify(m)},`).join('\n')}\n] as const;`,
    '',
    '/** Names that take no value (pflag NoOptDefVal) in some generated minor: argv is split with these before the minor is known. */',
    `export const KUBELET_BOOLEAN_FLAGS: readonly string[] = ${JSON.stringify([...new Set(rows.filter((r) => r.noOptDefVal !== undefined).map((r) => r.name))].sort())};`,
    '',
    'let parsed: readonly KubeletFlagRecord[] | undefined;',
    '',
    '/** Every row, parsed from JSON text on first use: a run that reads no flag table (--version) builds none of it. */',
    'export function kubeletFlagRows(): readonly KubeletFlagRecord[] {',
    '  parsed ??= (JSON.parse(rowsJson()) as (Omit<KubeletFlagRecord, \'deprecated\'> & { deprecated?: number })[]).map((r) =>',
    '    r.deprecated === undefined ? (r as KubeletFlagRecord) : { ...r, deprecated: DEPRECATED[r.deprecated]! },',
    '  );',
    '  return parsed;',
    '}',
    '',
    `const rowsJson = (): string => ${JSON.stringify(JSON.stringify(rows.map(rowJson)))};`,
    '',
  ].join('\n');
  return body;
}

/** The probe's Go value type (%T) as this table's type name (see scripts/generate/kubelet-flags-probe/). */
const PROBE_TYPES = {
  '*pflag.boolValue': 'bool', '*pflag.stringValue': 'string', '*pflag.durationValue': 'duration', '*pflag.int32Value': 'int32',
  '*pflag.int64Value': 'int64', '*pflag.intValue': 'int', '*pflag.uint64Value': 'uint64', '*pflag.float64Value': 'float64',
  '*pflag.stringSliceValue': 'stringSlice', '*flag.ConfigurationMap': 'configurationMap', '*flag.MapStringString': 'mapStringString',
  '*flag.MapStringString(NoSplit)': 'mapStringStringNoSplit', '*flag.LangleSeparatedMapStringString': 'langleMapStringString',
  '*flag.ColonSeparatedMultimapStringString': 'colonMultimapStringString', '*flag.MapStringBool': 'mapStringBool', '*flag.IPVar': 'ip',
  '*flag.ReservedMemoryVar': 'reservedMemory', '*flag.RegisterWithTaintsVar': 'taints', 'v1.verbosityLevelPflag': 'verbosity',
  'v1.vmoduleConfigurationPFlag': 'vmodule', '*config.VerbosityLevel': 'verbosity', '*config.VModuleConfiguration': 'vmodule',
  '*resource.QuantityValue': 'quantity', '*verflag.versionValue': 'version',
  '*pflag.flagValueWrapper(*flag.boolValue)': 'goBool', '*pflag.flagValueWrapper(*flag.stringValue)': 'goString',
  '*pflag.flagValueWrapper(*flag.durationValue)': 'goDuration', '*pflag.flagValueWrapper(*flag.intValue)': 'goInt',
  '*pflag.flagValueWrapper(*flag.int64Value)': 'goInt', '*pflag.flagValueWrapper(*flag.uintValue)': 'goUint64',
  '*pflag.flagValueWrapper(*flag.uint64Value)': 'goUint64',
};

/** Differences between this generator's reading of 1.<minor> and the probe's dump of the linked code. */
export function compareWithProbe(minor, probeLines) {
  const ours = new Map(readMinor(minor).map((f) => [f.name, f]));
  const theirs = new Map(probeLines.map((p) => [p.name, p]));
  const diffs = [];
  for (const name of new Set([...ours.keys(), ...theirs.keys()])) {
    const a = ours.get(name);
    const b = theirs.get(name);
    if (!a || !b) {
      diffs.push(`--${name}: only in ${a ? 'the source reading' : 'the probe'}`);
      continue;
    }
    const probeType = PROBE_TYPES[b.goType] ?? (b.goType.startsWith('*pflag.flagValueWrapper(') ? 'goOpaque' : `? ${b.goType}`);
    const pairs = [['type', a.type, probeType], ['shorthand', a.shorthand ?? '', b.shorthand ?? ''], ['noOptDefVal', a.noOptDefVal ?? '', b.noOptDefVal ?? ''],
      ['deprecated', a.deprecated ?? '', b.deprecated ?? ''], ['hidden', Boolean(a.hidden), Boolean(b.hidden)], ['shorthandDeprecated', a.shorthandDeprecated ?? '', b.shorthandDeprecated ?? '']];
    for (const [field, x, y] of pairs) if (x !== y) diffs.push(`--${name} ${field}: source ${JSON.stringify(x)}, probe ${JSON.stringify(y)}`);
  }
  return diffs;
}

function main(argv) {
  if (argv[0] === '--compare-probe') {
    const minor = Number(/^1\.(\d+)$/.exec(argv[1] ?? '')?.[1]);
    const lines = readFileSync(argv[2], 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const diffs = compareWithProbe(minor, lines);
    process.stdout.write(diffs.length ? `${diffs.join('\n')}\n` : `1.${minor}: the source reading and the probe agree on ${lines.length} flags\n`);
    if (diffs.length) process.exitCode = 1;
    return;
  }
  if (argv[0] === '--json') {
    const minor = Number(/^1\.(\d+)$/.exec(argv[1] ?? '')?.[1]);
    for (const flag of readMinor(minor)) process.stdout.write(`${JSON.stringify(flag)}\n`);
    return;
  }
  const text = generate();
  if (argv.includes('--stdout')) process.stdout.write(text);
  else {
    writeFileSync(`${root}/${OUT}.tmp`, text);
    renameSync(`${root}/${OUT}.tmp`, `${root}/${OUT}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof SourceError || error instanceof FlagSourceError || error instanceof GoSourceError)) throw error;
    process.stderr.write(`kubelet-flags: ${error.message}\n`);
    process.exit(1);
  }
}
