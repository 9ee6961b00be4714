/**
 * Everything discovery learned about a node, as plain data. Evaluation is a pure function of this:
 * every file kubelet would look at during credential-provider registration is captured here as a
 * `PathFact`, keyed by its absolute node path, so the rules never touch the disk.
 */
import type { ErrnoCode, DirEntryFacts } from '../host/root-fs.js';
import type { KubeletFlags, KubeletInvocation } from '../kubelet/flags.js';
import type { ServiceModel } from './service.js';
import type { FlavorDecision } from '../kubelet/flavor.js';
import type { CriSocketFact, HostFacts, HostFactsResult } from '../host-facts/types.js';
import type { InProcessKubelet } from '../discover/in-process-kubelet.js';

export interface ElfFacts {
  /** e_machine name: "x86_64", "aarch64", "ppc64le", "s390x", or "machine-<n>". */
  readonly machine: string;
  /** PT_INTERP, the dynamic loader the kernel needs to run it; undefined when static. */
  readonly interpreter?: string;
}

export type KubeletLinkage = 'static' | 'dynamic';

export type ContentFact = { readonly ok: true; readonly data: Buffer } | { readonly ok: false; readonly code: ErrnoCode };

export type PathFact =
  | { readonly exists: false; readonly code: ErrnoCode }
  | {
      readonly exists: true;
      /** Type after following symlinks (stat). */
      readonly type: 'file' | 'directory' | 'other';
      readonly mode: number;
      readonly uid: number;
      readonly gid: number;
      /** Set when the path itself is a symlink: its raw target. */
      readonly symlinkTarget?: string;
      /** Contents, for files kubelet reads (credential provider configs). */
      readonly content?: ContentFact;
      /** Entries, for directories kubelet lists (a 1.34+ config directory). */
      readonly entries?: readonly DirEntryFacts[] | { readonly error: ErrnoCode };
      /** For plugin binaries. */
      readonly elf?: ElfFacts;
      /** For scripts: the "#!" interpreter path. */
      readonly shebang?: string;
      /** True when the file sits on a noexec mount (only known on the live root). */
      readonly noexecMount?: boolean;
    };

export type FileTable = Readonly<Record<string, PathFact>>;

/** A file's bytes, or the errno kubelet would meet reading it. */
export type FileContent = Buffer | { readonly errno: ErrnoCode };

export interface KubeletConfigFacts {
  /** --config file, when given: read whole (kubelet decodes it per version, src/kubelet/config/). */
  readonly configFile?: { readonly path: string; readonly content: FileContent };
  /**
   * --config-dir, when given: its *.conf files in kubelet's walk order (filepath.WalkDir, lexical,
   * recursive); `problem` when the directory itself cannot be walked.
   */
  readonly configDir?: { readonly path: string; readonly dropIns: readonly { readonly path: string; readonly content: FileContent }[]; readonly problem?: string; readonly missing?: boolean };
}

export interface NodeModel {
  /** The --root node-check read from ("/" on a live node). */
  readonly root: string;
  readonly service: ServiceModel;
  /** Where kubelet is in the ExecStart argv; undefined when no kubelet was found there. */
  readonly kubelet?: KubeletInvocation & { readonly flags: KubeletFlags };
  readonly kubeletConfig: KubeletConfigFacts;
  /** Environment of the kubelet process (for KUBELET_CONFIG_DROPIN_DIR_ALPHA on 1.28-1.29). */
  readonly kubeletEnvironment: Readonly<Record<string, string>>;
  /** The version given with --kubelet-version or read from `kubelet --version`; undefined when unknown. */
  readonly kubeletVersion?: { readonly text: string; readonly source: 'flag' | 'binary' };
  /** Why the version is unknown, when it is. */
  readonly kubeletVersionProblem?: string;
  readonly files: FileTable;
  /** The node's CPU architecture as an ELF machine name (from the kubelet binary, or this host on "/"). */
  readonly nodeMachine?: string;
  /**
   * How the kubelet binary was linked, from its ELF header (PT_INTERP: dynamic, with cgo's libc
   * lookups; none: static, Go's own); undefined when the root does not carry it.
   */
  readonly kubeletLinkage?: KubeletLinkage;
  /**
   * Host facts (swap, cgroups, sysctls, CRI sockets, online CPUs): read only when the root is the
   * live "/". `criSockets` is keyed by the endpoints kubelet may be given; `notChecked` says what was
   * not examined and why (always everything for another root).
   */
  readonly host?: {
    readonly facts: HostFacts;
    readonly criSockets: Readonly<Record<string, CriSocketFact>>;
    readonly notChecked: HostFactsResult['notChecked'];
  };
  /** Upstream's or OpenShift's kubelet, and the evidence (or --kubelet-flavor) that decided. */
  readonly flavor?: FlavorDecision;
  /** /etc/os-release of the node. */
  readonly osRelease: Readonly<Record<string, string>>;
  /** Set when no unit runs kubelet because a distribution runs it inside another program (src/discover/in-process-kubelet.ts). */
  readonly inProcessKubelet?: InProcessKubelet;
}
