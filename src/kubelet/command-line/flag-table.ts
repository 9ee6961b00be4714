/**
 * The flags kubelet registers on its command line, per minor 1.24..1.36: KubeletFlags.AddFlags and
 * AddKubeletConfigFlags (cmd/kubelet/app/options/options.go), ContainerRuntimeOptions
 * (cmd/kubelet/app/options/container_runtime.go <=1.26, pkg/kubelet/config/flags.go 1.27+), the
 * component-base logging flags, the globals (help, version, cadvisor, credential provider) and, in
 * 1.24-1.25, the deprecated klog flags. Data: src/kubelet/data/kubelet-flags.generated.ts
 * (provenance: scripts/generate/sources/kubelet-flags/PROVENANCE.md).
 */
import {
  KUBELET_FLAG_ABSENCES,
  KUBELET_FLAG_MINORS,
  KUBELET_FLAG_TABLE_COMPLETE,
  KUBELET_FLAGS,
  type KubeletFlagAbsence,
  type KubeletFlagGroup,
} from '../data/kubelet-flags.generated.js';

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
  /** pflag prints "Flag --x has been deprecated, <message>" and goes on; true = message not pinned. */
  readonly deprecated?: string | true;
  /** No kubelet 1.24+ flag is hidden (AddFlags unhides deprecated ones). */
  readonly hidden: boolean;
  /** The KubeletConfiguration field (v1beta1 JSON path) a config flag binds, e.g. failSwapOn. */
  readonly configField?: string;
  readonly group: KubeletFlagGroup;
  /** True when presence in this minor is assumed from a neighbouring version (see PROVENANCE.md). */
  readonly inferred: boolean;
}

const tables = new Map<number, ReadonlyMap<string, FlagSpec>>();

export function isModelledFlagMinor(minor: number): boolean {
  return Number.isInteger(minor) && minor >= KUBELET_FLAG_MINORS.oldest && minor <= KUBELET_FLAG_MINORS.newest;
}

// A row's spec does not depend on the minor: made once, shared by every minor's table (check builds thirteen).
const specs = new Map<(typeof KUBELET_FLAGS)[number], FlagSpec>();

function specOf(r: (typeof KUBELET_FLAGS)[number]): FlagSpec {
  let spec = specs.get(r);
  if (spec === undefined) {
    spec = {
      name: r.name,
      type: r.type as FlagValueType,
      ...(r.shorthand !== undefined ? { shorthand: r.shorthand } : {}),
      ...(r.noOptDefVal !== undefined ? { noOptDefVal: r.noOptDefVal } : {}),
      ...(r.deprecated !== undefined ? { deprecated: r.deprecated } : {}),
      hidden: false,
      ...(r.configField !== undefined ? { configField: r.configField } : {}),
      group: r.group,
      inferred: r.presence === 'inferred',
    };
    specs.set(r, spec);
  }
  return spec;
}

/** Every flag kubelet 1.<minor> registers (as far as known), by normalized name; undefined outside 1.24..1.36. */
export function kubeletFlagsFor(minor: number): ReadonlyMap<string, FlagSpec> | undefined {
  if (!isModelledFlagMinor(minor)) return undefined;
  let table = tables.get(minor);
  if (!table) {
    const map = new Map<string, FlagSpec>();
    for (const r of KUBELET_FLAGS) {
      if (minor < r.from || minor > r.until) continue;
      map.set(r.name, specOf(r));
    }
    table = map;
    tables.set(minor, table);
  }
  return table;
}

/**
 * True when the table for this minor lists every flag the binary registers, so a name missing from it
 * is certainly "unknown flag". False for every minor today (PROVENANCE.md "Completeness"): callers must
 * answer "cannot tell" for names that are neither in the table nor certainly absent.
 */
export function flagTableComplete(minor: number): boolean {
  return isModelledFlagMinor(minor) && KUBELET_FLAG_TABLE_COMPLETE.includes(minor);
}

/** Why a normalized flag name is certainly NOT registered in this minor (removed, or not yet added). */
export function flagCertainlyAbsent(minor: number, name: string): KubeletFlagAbsence | undefined {
  if (!isModelledFlagMinor(minor)) return undefined;
  return KUBELET_FLAG_ABSENCES.find((a) => a.name === name && minor >= a.from && minor <= a.until);
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
