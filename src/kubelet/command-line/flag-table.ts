/**
 * Every flag kubelet registers on its command line, per minor 1.24..1.37: NewKubeletCommand
 * (cmd/kubelet/app/server.go) fills one flag set from KubeletFlags.AddFlags and AddKubeletConfigFlags
 * (cmd/kubelet/app/options/options.go), the container runtime options, component-base's logging
 * flags, the globals (help, version, cadvisor, credential provider) and, in 1.24-1.25, klog's flags.
 * Data: src/kubelet/data/kubelet-flags.generated.ts, generated from the source at each minor's
 * locked release tag (scripts/generate/kubelet-flags.mjs), so each minor's table is complete: a name
 * not in it is pflag's "unknown flag".
 */
import { KUBELET_FLAG_SOURCES, kubeletFlagRows, type KubeletFlagGroup, type KubeletFlagRecord } from '../data/kubelet-flags.generated.js';
import { isModelledMinor } from '../data/minors.js';
import type { KubeletFlavor } from '../flavor.js';

/**
 * The value type as pflag sees it. pflag's own: bool, string, int32, int, int64, uint64, float64,
 * duration, stringSlice. component-base cli/flag: mapStringString(+NoSplit), langleMapStringString,
 * colonMultimapStringString, mapStringBool, configurationMap. component-base logs: verbosity, vmodule,
 * quantity (resource.QuantityValue). kubernetes pkg/util/flag: ip, taints, reservedMemory. verflag:
 * version. Go stdlib flags wrapped by pflag.PFlagFromGoFlag (cadvisor, klog): goBool, goString, goInt,
 * goUint64, goDuration, goOpaque (a klog type whose parser is not modelled).
 */
export type FlagValueType =
  | 'bool' | 'string' | 'int32' | 'int' | 'int64' | 'uint64' | 'float64' | 'duration' | 'stringSlice'
  | 'mapStringString' | 'mapStringStringNoSplit' | 'langleMapStringString' | 'colonMultimapStringString'
  | 'mapStringBool' | 'configurationMap' | 'verbosity' | 'vmodule' | 'quantity' | 'ip' | 'taints'
  | 'reservedMemory' | 'version' | 'goBool' | 'goString' | 'goInt' | 'goUint64' | 'goDuration' | 'goOpaque';

export interface FlagSpec {
  /** Normalized name, without dashes in front. */
  readonly name: string;
  readonly type: FlagValueType;
  readonly shorthand?: string;
  /** Set for flags that never take the next argument (bool flags, --version). */
  readonly noOptDefVal?: string;
  /** pflag prints "Flag --x has been deprecated, <message>" and goes on. */
  readonly deprecated?: string;
  /** Left out of --help (pflag's MarkDeprecated hides; KubeletFlags.AddFlags unhides its deprecated flags). */
  readonly hidden: boolean;
  /** The KubeletConfiguration field (v1beta1 JSON path) a config flag binds, e.g. failSwapOn. */
  readonly configField?: string;
  readonly group: KubeletFlagGroup;
}

const tables = new Map<number, ReadonlyMap<string, FlagSpec>>();

/** A modelled minor (../data/minors.ts) whose flags were generated; the rows may reach a minor not modelled yet. */
export function isModelledFlagMinor(minor: number): boolean {
  return isModelledMinor(minor) && Object.hasOwn(KUBELET_FLAG_SOURCES, minor);
}

// A row's spec does not depend on the minor: made once, shared by every minor's table (check builds thirteen).
const specs = new Map<KubeletFlagRecord, FlagSpec>();

function specOf(r: KubeletFlagRecord): FlagSpec {
  let spec = specs.get(r);
  if (spec === undefined) {
    spec = {
      name: r.name,
      type: r.type as FlagValueType,
      ...(r.shorthand !== undefined ? { shorthand: r.shorthand } : {}),
      ...(r.noOptDefVal !== undefined ? { noOptDefVal: r.noOptDefVal } : {}),
      ...(r.deprecated !== undefined ? { deprecated: r.deprecated } : {}),
      hidden: r.hidden === true,
      ...(r.configField !== undefined ? { configField: r.configField } : {}),
      group: r.group,
    };
    specs.set(r, spec);
  }
  return spec;
}

/** Every flag kubelet 1.<minor> registers, by normalized name; undefined for a minor not modelled. */
export function kubeletFlagsFor(minor: number): ReadonlyMap<string, FlagSpec> | undefined {
  if (!isModelledFlagMinor(minor)) return undefined;
  let table = tables.get(minor);
  if (!table) {
    const map = new Map<string, FlagSpec>();
    for (const r of kubeletFlagRows()) {
      if (minor < r.from || minor > r.until) continue;
      map.set(r.name, specOf(r));
    }
    table = map;
    tables.set(minor, table);
  }
  return table;
}

/**
 * OpenShift's kubelet also registers cadvisor's max_housekeeping_interval (not deprecated):
 * openshift/kubernetes cmd/kubelet/app/options/globalflags_linux.go, as vendored in
 * openshift/microshift release-4.12 … release-5.2 (kubelet 1.25 onwards). OpenShift 4.11's 1.24
 * kubelet was not read, so there the flag is neither accepted nor refused.
 */
const OPENSHIFT_MAX_HOUSEKEEPING: FlagSpec = { name: 'max-housekeeping-interval', type: 'goDuration', hidden: false, group: 'cadv' };
const OPENSHIFT_CARRY_FROM = 25;
const openshiftTables = new Map<number, ReadonlyMap<string, FlagSpec>>();

/** The flag set of this flavor's kubelet 1.<minor>, and names whose registration is not known there. */
export function flavorFlagTable(minor: number, flavor: KubeletFlavor): { table: ReadonlyMap<string, FlagSpec>; unknownStatus: readonly string[] } | undefined {
  const table = kubeletFlagsFor(minor);
  if (!table || flavor !== 'openshift') return table && { table, unknownStatus: [] };
  if (minor < OPENSHIFT_CARRY_FROM) return { table, unknownStatus: [OPENSHIFT_MAX_HOUSEKEEPING.name] };
  let openshift = openshiftTables.get(minor);
  if (!openshift) {
    openshift = new Map([...table, [OPENSHIFT_MAX_HOUSEKEEPING.name, OPENSHIFT_MAX_HOUSEKEEPING]]);
    openshiftTables.set(minor, openshift);
  }
  return { table: openshift, unknownStatus: [] };
}

/** The flag that owns a one-letter shorthand (-h → help, -v → v). */
export function shorthandFlag(table: ReadonlyMap<string, FlagSpec>, letter: string): FlagSpec | undefined {
  for (const spec of table.values()) if (spec.shorthand === letter) return spec;
  return undefined;
}

/** cliflag.WordSepNormalizeFunc: "_" → "-" (cmd/kubelet/app/server.go sets it on the clean flag set). */
export function normalizeKubeletFlagName(name: string): string {
  return name.replace(/_/g, '-');
}
