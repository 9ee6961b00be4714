// The feature gates a kubelet binary registers, read from its Go source the way kubelet's package
// init()s register them (component-base featuregate.Add / AddVersioned / AddDependencies on
// k8s.io/apiserver/pkg/util/feature.DefaultMutableFeatureGate):
//   - k8s.io/kubernetes/pkg/features: init() Adds the kube map(s) (kube_features.go, and
//     versioned_kube_features.go where present), zpages' gates, client-go's gates through the
//     clientAdapter, and from 1.35 the dependency map; OpenShift's fork also mutates the maps
//     first (registerOpenshiftFeatures) or Adds its own (patch_kube_features.go);
//   - every feature package pkg/features imports whose own init() Adds (k8s.io/apiserver/pkg/features,
//     k8s.io/apiextensions-apiserver/pkg/features);
//   - cmd/kubelet/app (logs' gates) and pkg/kubelet/server (metrics' gates, 1.26+) init()s.
// A statement in such an init() that touches the gate registry and is not understood stops the
// generator: nothing is guessed. The same reader serves upstream's tags (module cache) and
// OpenShift's fork (MicroShift's vendor/ tree), through a `source` with files(importPath).

export class GateSourceError extends Error {}

/** Go source without comments (strings and runes kept). */
export function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === '`' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += c !== '`' && text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Index just after the bracket that closes the one at `open`. */
function closing(text, open) {
  const pairs = { '{': '}', '(': ')', '[': ']' };
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === '`' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += c !== '`' && text[j] === '\\' ? 2 : 1;
      i = j;
    } else if (pairs[c]) stack.push(pairs[c]);
    else if (c === '}' || c === ')' || c === ']') {
      if (stack.pop() !== c) throw new GateSourceError(`unbalanced ${c} at ${i}`);
      if (stack.length === 0) return i + 1;
    }
  }
  throw new GateSourceError('unterminated bracket');
}

/** Splits at top-level separators (outside brackets and strings). */
function splitTop(text, separator) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === '`' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += c !== '`' && text[j] === '\\' ? 2 : 1;
      i = j;
    } else if ('{(['.includes(c)) depth++;
    else if ('})]'.includes(c)) depth--;
    else if (depth === 0 && separator.test(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** One Go package: its files (comments stripped), imports, Feature constants, maps and functions. */
class GoPackage {
  constructor(importPath, files) {
    this.importPath = importPath;
    this.files = files.map((f) => ({ name: f.name, text: stripComments(f.text) }));
    this.imports = new Map();
    this.constants = new Map();
    this.booleans = new Map(); // package-level boolean constants a spec may name
    this.functions = new Map(); // name -> bodies (init has several)
    for (const { text } of this.files) {
      for (const block of text.matchAll(/^import\s*\(([\s\S]*?)^\)/gm)) this.addImports(block[1]);
      for (const single of text.matchAll(/^import\s+(\w+\s+)?("[^"]+")/gm)) this.addImports(`${single[1] ?? ''}${single[2]}`);
      for (const c of text.matchAll(/\b(\w+)\s+(?:featuregate\.)?Feature\s*=\s*"([^"]+)"/g)) this.constants.set(c[1], c[2]);
      for (const c of text.matchAll(/\b(\w+)\s*=\s*(?:featuregate\.)?Feature\("([^"]+)"\)/g)) this.constants.set(c[1], c[2]);
      // An untyped string constant in a const block (converted to Feature where it keys the map).
      for (const c of text.matchAll(/^\s*(\w+)\s*=\s*"([^"]+)"\s*$/gm)) if (!this.constants.has(c[1])) this.constants.set(c[1], c[2]);
      for (const c of text.matchAll(/^\s*(?:const\s+)?(\w+)\s*=\s*(true|false)\s*$/gm)) this.booleans.set(c[1], c[2] === 'true');
      for (const fn of text.matchAll(/^func\s+(\w+)\s*\(([^)]*)\)[^{\n]*\{/gm)) {
        const open = fn.index + fn[0].length - 1;
        const body = text.slice(open + 1, closing(text, open) - 1);
        if (!this.functions.has(fn[1])) this.functions.set(fn[1], []);
        this.functions.get(fn[1]).push(body);
      }
    }
  }

  addImports(block) {
    for (const line of block.split('\n')) {
      const m = /^\s*(\w+|_|\.)?\s*"([^"]+)"/.exec(line);
      if (m) this.imports.set(m[1] ?? m[2].split('/').pop(), m[2]);
    }
  }

  /** The source text of a package-level `var name = <literal>` (or `name = <literal>` in a var block). */
  varLiteral(name) {
    for (const { text } of this.files) {
      const m = new RegExp(`^\\s*(?:var\\s+)?${name}\\s*=\\s*(map\\[[^{]*\\{)`, 'm').exec(text);
      if (m) {
        const open = m.index + m[0].length - 1;
        return { type: m[1].slice(0, -1), body: text.slice(open + 1, closing(text, open) - 1) };
      }
    }
    return undefined;
  }
}

/** A spec literal's fields: {Default: true, PreRelease: featuregate.Beta, LockToDefault: true, Version: ...}. */
function parseSpec(text, where, booleans = new Map()) {
  const body = text.replace(/^[\w.]*FeatureSpec\s*/, '').trim();
  if (!body.startsWith('{') || !body.endsWith('}')) throw new GateSourceError(`${where}: not a FeatureSpec literal: ${text}`);
  const spec = { default: false, preRelease: undefined, lockToDefault: false };
  for (const field of splitTop(body.slice(1, -1), /,/)) {
    const m = /^(\w+)\s*:\s*([\s\S]+)$/.exec(field);
    if (!m) throw new GateSourceError(`${where}: unnamed FeatureSpec field ${field}`);
    const [, key, value] = m;
    if (key === 'Default' || key === 'LockToDefault') {
      const literal = booleans.has(value) ? String(booleans.get(value)) : value;
      if (literal !== 'true' && literal !== 'false') throw new GateSourceError(`${where}: ${key} is ${value}, not a literal`);
      spec[key === 'Default' ? 'default' : 'lockToDefault'] = literal === 'true';
    } else if (key === 'PreRelease') {
      const stage = /^(?:\w+\.)?(Alpha|Beta|GA|Deprecated|PreAlpha)$/.exec(value)?.[1];
      if (!stage) throw new GateSourceError(`${where}: PreRelease ${value}`);
      spec.preRelease = stage;
    } else if (key === 'Version' || key === 'MinCompatibilityVersion') {
      const v = /^version\.(?:MustParse\("(\d+)\.(\d+)"\)|MajorMinor\((\d+),\s*(\d+)\))$/.exec(value);
      if (!v) throw new GateSourceError(`${where}: Version ${value}`);
      // MinCompatibilityVersion (component-base v0.37+) is kept; kubelet 1.37 is not modelled yet.
      spec[key === 'Version' ? 'version' : 'minCompatibilityVersion'] = [Number(v[1] ?? v[3]), Number(v[2] ?? v[4])];
    } else throw new GateSourceError(`${where}: unknown FeatureSpec field ${key}`);
  }
  // featuregate.FeatureSpec's zero PreRelease is "" = GA.
  spec.preRelease ??= 'GA';
  return spec;
}

/** A versioned spec list: {{Version: ..., ...}, {...}} (or featuregate.VersionedSpecs{...}). */
function parseVersioned(text, where, booleans) {
  const body = text.replace(/^[\w.]*VersionedSpecs\s*/, '').trim();
  if (!body.startsWith('{') || !body.endsWith('}')) throw new GateSourceError(`${where}: not a VersionedSpecs literal: ${text}`);
  const specs = splitTop(body.slice(1, -1), /,/).map((s) => parseSpec(s, where, booleans));
  if (specs.some((s) => !s.version)) throw new GateSourceError(`${where}: a versioned spec without Version`);
  return specs;
}

/**
 * Reads the gates one kubelet source tree registers. `source.files(importPath)` returns the
 * package's non-test Go files ([{name, text}]) or undefined when the package is not there.
 * Returns { specs: Map(name -> VersionedSpec[] (unversioned specs get version [0, 0])),
 * dependencies: Map(name -> names) | undefined, versioned: boolean, emulation: [1, N] | undefined,
 * packages: [importPath] }.
 */
export function readRegistrations(source) {
  const packages = new Map();
  const pkg = (importPath) => {
    if (!packages.has(importPath)) {
      const files = source.files(importPath);
      if (!files || files.length === 0) throw new GateSourceError(`cannot read package ${importPath}`);
      packages.set(importPath, new GoPackage(importPath, files));
    }
    return packages.get(importPath);
  };
  const gate = pkg('k8s.io/component-base/featuregate');
  const versionedGate = gate.functions.has('NewVersionedFeatureGate');
  const registered = new Map();
  let dependencies;
  const order = [];
  const mapState = new Map(); // "importPath var" -> Map(key -> value text), after in-place edits

  const featureName = (p, keyExpr, where) => {
    // A key may be converted: featuregate.Feature(clientfeatures.AtomicFIFO).
    const m = /^(?:(?:featuregate\.)?Feature\()?(?:(\w+)\.)?(\w+)\)?$/.exec(keyExpr.trim());
    if (!m) throw new GateSourceError(`${where}: gate key ${keyExpr}`);
    const owner = m[1] ? pkg(importOf(p, m[1], where)) : p;
    const value = owner.constants.get(m[2]);
    if (value === undefined) throw new GateSourceError(`${where}: no Feature constant ${keyExpr} in ${owner.importPath}`);
    return value;
  };
  const importOf = (p, alias, where) => {
    const path = p.imports.get(alias);
    if (!path) throw new GateSourceError(`${where}: ${alias} is not imported by ${p.importPath}`);
    return path;
  };
  const mapEntries = (p, name, where) => {
    const id = `${p.importPath} ${name}`;
    if (!mapState.has(id)) {
      const literal = p.varLiteral(name);
      if (!literal) throw new GateSourceError(`${where}: no map ${name} in ${p.importPath}`);
      mapState.set(id, { type: literal.type, entries: new Map(entriesOf(literal.body).map(([k, v]) => [k, v])) });
    }
    return mapState.get(id);
  };
  const entriesOf = (body) =>
    splitTop(body, /,/).map((entry) => {
      const colon = splitTop(entry, /:/);
      if (colon.length < 2) throw new GateSourceError(`map entry without key: ${entry}`);
      const key = colon[0];
      return [key, entry.slice(entry.indexOf(':', key.length) + 1).trim()];
    });
  /** The map an argument names: a package var, or a local func returning a map literal. */
  const mapArgument = (p, arg, where) => {
    const call = /^(\w+)\(\)$/.exec(arg);
    if (call) {
      const bodies = p.functions.get(call[1]);
      const ret = bodies?.length === 1 ? /^\s*return\s+(map\[[^{]*)\{/.exec(bodies[0]) : null;
      if (!ret) throw new GateSourceError(`${where}: ${arg} is not a function returning a map literal`);
      const open = bodies[0].indexOf('{', ret.index + ret[0].length - 1);
      const body = bodies[0].slice(open + 1, closing(bodies[0], open) - 1);
      return { type: ret[1], entries: new Map(entriesOf(body)) };
    }
    if (/^\w+$/.test(arg)) return mapEntries(p, arg, where);
    throw new GateSourceError(`${where}: map argument ${arg}`);
  };
  const add = (p, map, versioned, where, convert = (s) => s) => {
    for (const [key, value] of map.entries) {
      const name = featureName(p, key, where);
      const specs = versioned ? parseVersioned(value, `${where} ${name}`, p.booleans) : [{ ...parseSpec(value, `${where} ${name}`, p.booleans), version: [0, 0] }];
      const converted = specs.map(convert);
      const existing = registered.get(name);
      if (existing) {
        // featuregate.Add(Versioned): the same spec again is skipped, a different one is an error
        // (and kubelet's init() would panic).
        if (JSON.stringify(existing) !== JSON.stringify(converted)) throw new GateSourceError(`${where}: ${name} is added twice with different specs`);
        continue;
      }
      registered.set(name, converted);
    }
  };
  const ADD = /^(\w+)\.DefaultMutableFeatureGate\.(Add|AddVersioned|AddDependencies)\((.*)\)$/s;
  const runStatement = (p, statement, where) => {
    let s = statement.trim();
    const must = /^(?:\w*runtime)\.Must\(([\s\S]*)\)$/.exec(s);
    if (must) s = must[1].trim();
    let m = ADD.exec(s);
    if (m) {
      if (importOf(p, m[1], where) !== 'k8s.io/apiserver/pkg/util/feature') throw new GateSourceError(`${where}: ${m[1]} is not k8s.io/apiserver/pkg/util/feature`);
      if (m[2] === 'AddDependencies') {
        const deps = mapEntries(p, m[3].trim(), where);
        dependencies = new Map();
        for (const [key, value] of deps.entries) {
          const list = /^(?:\[\][\w.]*Feature)?\s*\{([\s\S]*)\}$/.exec(value);
          if (!list) throw new GateSourceError(`${where}: dependency list ${value}`);
          dependencies.set(featureName(p, key, where), splitTop(list[1], /,/).map((d) => featureName(p, d, where)).sort());
        }
        return;
      }
      const map = mapArgument(p, m[3].trim(), where);
      add(p, map, m[2] === 'AddVersioned', where);
      return;
    }
    m = /^(\w+)\.AddFeatureGates\((\w+)\.DefaultMutableFeatureGate\)$/.exec(s);
    if (m) {
      const q = pkg(importOf(p, m[1], where));
      runAddFunction(q, 'AddFeatureGates', `${q.importPath}.AddFeatureGates`);
      return;
    }
    m = /^(\w+)\.(AddFeaturesToExistingFeatureGates|AddVersionedFeaturesToExistingFeatureGates)\((\w+)\)$/.exec(s);
    if (m) {
      // client-go's gates through pkg/features/client_adapter.go: the stages map one to one
      // (clientAdapter.Add / AddVersioned), so the specs are client-go's own.
      const q = pkg(importOf(p, m[1], where));
      if (!p.functions.has('Add') && !p.files.some((f) => /func \(a \*clientAdapter\) Add/.test(f.text))) throw new GateSourceError(`${where}: no clientAdapter in ${p.importPath}`);
      runAddFunction(q, m[2], `${q.importPath}.${m[2]}`);
      return;
    }
    if (/^\w+\s*:=\s*&clientAdapter\{\w+\.DefaultMutableFeatureGate\}$/.test(s) || /^\w+\.ReplaceFeatureGates\(\w+\)$/.test(s)) return;
    m = /^(\w+)\(\)$/.exec(s);
    if (m && p.functions.has(m[1])) {
      for (const body of p.functions.get(m[1])) runMutations(p, body, `${where} ${m[1]}()`);
      return;
    }
    if (/FeatureGate|featuregate|features/.test(s)) throw new GateSourceError(`${where}: init() statement not understood: ${s}`);
  };
  /** A helper such as logsapi.AddFeatureGates: `return <gate>.Add(featureGates())` (or AddVersioned). */
  const runAddFunction = (q, name, where) => {
    const bodies = q.functions.get(name);
    if (bodies?.length !== 1) throw new GateSourceError(`${where}: not found`);
    const m = /^\s*return\s+\w+\.(Add|AddVersioned)\(([\s\S]*)\)\s*$/.exec(bodies[0]);
    if (!m) throw new GateSourceError(`${where}: body not understood: ${bodies[0].trim()}`);
    let arg = m[2].trim();
    const unversioned = /^unversionedFeatureGates\((\w+)\)$/.exec(arg);
    if (unversioned) {
      // client-go features.go unversionedFeatureGates: each gate's latest spec, version cleared.
      const map = mapEntries(q, unversioned[1], where);
      for (const [key, value] of map.entries) {
        const specs = parseVersioned(value, where, q.booleans);
        const latest = { ...specs[specs.length - 1], version: [0, 0] };
        const name2 = featureName(q, key, where);
        if (registered.has(name2) && JSON.stringify(registered.get(name2)) !== JSON.stringify([latest])) throw new GateSourceError(`${where}: ${name2} twice`);
        registered.set(name2, [latest]);
      }
      return;
    }
    add(q, mapArgument(q, arg, where), m[1] === 'AddVersioned', where);
  };
  /** registerOpenshiftFeatures(): `mapVar[Key] = <spec literal>` edits before the map is Added. */
  const runMutations = (p, body, where) => {
    for (const statement of splitTop(body, /[\n;]/)) {
      const m = /^(\w+)\[([\w.]+)\]\s*=\s*([\s\S]+)$/.exec(statement);
      if (!m) throw new GateSourceError(`${where}: statement not understood: ${statement}`);
      mapEntries(p, m[1], where).entries.set(m[2], m[3].trim());
    }
  };
  const runInits = (importPath) => {
    const p = pkg(importPath);
    order.push(importPath);
    for (const body of p.functions.get('init') ?? []) {
      if (!/DefaultMutableFeatureGate/.test(body)) continue;
      for (const statement of splitTop(body, /[\n;]/)) runStatement(p, statement, `${importPath} init()`);
    }
  };

  // Go runs an imported package's init() before the importer's; the result does not depend on the
  // order (a gate added twice must be the same), only the dependency map comes last.
  const features = pkg('k8s.io/kubernetes/pkg/features');
  for (const path of new Set(features.imports.values())) {
    if (!/^k8s\.io\/[\w-]+\/pkg\/features$/.test(path) || path === 'k8s.io/kubernetes/pkg/features') continue;
    runInits(path);
  }
  runInits('k8s.io/kubernetes/pkg/features');
  runInits('k8s.io/kubernetes/cmd/kubelet/app');
  if (source.files('k8s.io/kubernetes/pkg/kubelet/server')) runInits('k8s.io/kubernetes/pkg/kubelet/server');

  let emulation;
  if (versionedGate) {
    const base = pkg('k8s.io/component-base/version').files.map((f) => f.text).join('\n');
    const v = /DefaultKubeBinaryVersion\s*=\s*"(\d+)\.(\d+)"/.exec(base);
    if (!v) throw new GateSourceError('k8s.io/component-base/version: no DefaultKubeBinaryVersion');
    emulation = [Number(v[1]), Number(v[2])];
  }
  return { specs: registered, dependencies, versioned: versionedGate, emulation, packages: order };
}

/**
 * featuregate featureSpecAtEmulationVersion (v0.31-v0.34) / featureSpecAtEmulationAndMinCompatVersion
 * (v0.35+, min compatibility = emulation - 1): the last spec not after the emulation version (and
 * whose MinCompatibilityVersion the gate meets), else PreAlpha with default false.
 */
export function specAtEmulation(specs, emulation) {
  const notAfter = ([major, minor], [atMajor, atMinor]) => major < atMajor || (major === atMajor && minor <= atMinor);
  const minCompatibility = [emulation[0], emulation[1] - 1];
  for (let i = specs.length - 1; i >= 0; i--) {
    if (!notAfter(specs[i].version, emulation)) continue;
    if (specs[i].minCompatibilityVersion && !notAfter(specs[i].minCompatibilityVersion, minCompatibility)) continue;
    return specs[i];
  }
  return { default: false, preRelease: 'PreAlpha', lockToDefault: false };
}

/** The gates kubelet knows, each as {default, preRelease, lockToDefault} at its emulation version. */
export function gatesAtEmulation(registrations) {
  const out = new Map();
  for (const name of [...registrations.specs.keys()].sort()) {
    const specs = registrations.specs.get(name);
    const spec = registrations.versioned ? specAtEmulation(specs, registrations.emulation) : specs[0];
    out.set(name, { default: spec.default, preRelease: spec.preRelease, lockToDefault: spec.lockToDefault });
  }
  return out;
}
