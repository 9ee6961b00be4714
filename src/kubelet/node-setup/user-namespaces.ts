/**
 * The user namespace manager NewMainKubelet creates last before it returns (pkg/kubelet/kubelet.go
 * "create user namespace manager: %w", 1.30-1.37; pkg/kubelet/userns/userns_manager.go
 * MakeUserNsManager), with UserNamespacesSupport on (by default from 1.33):
 *  - getKubeletMappings (pkg/kubelet/kubelet_pods.go) looks the user "kubelet" up with Go's
 *    os/user. A build without cgo reads /etc/passwd itself (GOROOT/src/os/user/lookup_unix.go):
 *    a missing file is `open /etc/passwd: no such file or directory`. A cgo build asks glibc
 *    (getpwnam_r), which answers ENOENT without the file; Go 1.23+ takes that as an unknown user
 *    (GOROOT/src/os/user/cgo_lookup_unix.go), Go 1.22 as `user: lookup username kubelet: …`.
 *    An unknown user means the default mappings;
 *  - a known user needs `getsubids` on kubelet's PATH (exec.LookPath): a missing one is an
 *    exec.Error, which os.IsNotExist does not unwrap, so kubelet exits; a present one is run, and
 *    its output (the subordinate ID ranges, /etc/subuid or another NSS source) is not modelled;
 *  - with the default mappings (idsPerPod 65536), 65535 ranges must cover maxPods:
 *    "kubelet user assigned IDs are not enough to support %v pods".
 * A non-default userNamespaces.idsPerPod already makes the answer "cannot tell"
 * (src/catalog/inputs.ts).
 */
import type { PathFact } from '../../model/node.js';
import { goQuote } from '../../go/index.js';
import type { GoAnswer } from '../../model/verdict.js';

export const PASSWD_PATH = '/etc/passwd';
export const KUBELET_USER = 'kubelet';
const GETSUBIDS = 'getsubids';
/** kubeletconfig.DefaultKubeletUserNamespacesIDsPerPod (pkg/kubelet/apis/config/types.go, 1.35+; the constant before). */
const IDS_PER_POD = 65536;
const DEFAULT_RANGES = Math.floor((2 ** 32 - IDS_PER_POD) / IDS_PER_POD);
/** The first Go minor whose cgo lookup takes getpwnam_r's ENOENT as an unknown user (go1.23.0 cgo_lookup_unix.go; not go1.22.12). */
const GO_CGO_ENOENT_UNKNOWN = 23;
/**
 * systemd's PATH for services when the unit sets none (systemd.exec(5), "Environment Variables in
 * Spawned Processes": /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin; builds with a split /usr
 * add /sbin:/bin). The superset: getsubids found in any of them is "cannot tell" either way.
 */
export const SYSTEMD_DEFAULT_PATH_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'] as const;

/** How the kubelet binary looks users up: it links glibc (cgo) or reads the files itself. */
export type UserLookup = 'cgo' | 'pure-go';

export interface UserNamespaceInput {
  readonly gateOn: boolean;
  readonly lookup: UserLookup;
  /** The Go minors this kubelet minor's releases were built with (src/kubelet/data/go-toolchain.ts). */
  readonly goMinors: { readonly first: number; readonly last: number };
  readonly passwd: PathFact | undefined;
  readonly maxPods: number;
  /** kubelet runs under a wrapper (its PATH may differ from the unit's). */
  readonly wrapped: boolean;
  /** PATH in kubelet's environment, when the unit sets one. */
  readonly path: string | undefined;
  /** The live root "/": a directory missing under another root may just not have been copied. */
  readonly hostRoot: boolean;
}

/** The user namespace manager's answer, always naming the file it is about. */
export type UserNamespaceCheck = GoAnswer<{ readonly path: string }>;

/** Where LookPath looks for getsubids, for discovery; undefined when a relative entry makes it undecidable. */
export function getsubidsCandidates(path: string | undefined): string[] | undefined {
  const dirs = path === undefined ? [...SYSTEMD_DEFAULT_PATH_DIRS] : path.split(':');
  if (dirs.some((d) => !d.startsWith('/'))) return undefined;
  return dirs.map((d) => `${d.replace(/\/+$/, '')}/${GETSUBIDS}`);
}

/** A decimal strconv.Atoi accepts (sign allowed, 64-bit range). */
const isAtoi = (s: string) => /^[+-]?\d+$/.test(s) && Math.abs(Number(s)) <= Number.MAX_SAFE_INTEGER;

/**
 * The "kubelet" entry of a passwd file: 'found' as Go's matchUserIndexValue takes it (trimmed
 * lines, '#' comments, at least 6 colons, numeric uid and gid, no NIS '+'/'-'); 'malformed' when a
 * line names the user but Go rejects it (glibc's parser may not); 'absent' otherwise.
 */
export function kubeletUserEntry(data: Buffer): 'found' | 'malformed' | 'absent' {
  let malformed = false;
  for (const raw of data.toString('latin1').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || !line.startsWith(`${KUBELET_USER}:`)) continue;
    const parts = line.split(':');
    if (parts.length >= 7 && isAtoi(parts[2]!) && isAtoi(parts[3]!)) return 'found';
    malformed = true;
  }
  return malformed ? 'malformed' : 'absent';
}

/** Whether kubelet 1.`minor` looks its user up at all: the code exists from 1.30. */
export const looksUpKubeletUser = (minor: number) => minor >= 30;

export function checkUserNamespaceManager(input: UserNamespaceInput, fileOf: (path: string) => PathFact | undefined): UserNamespaceCheck {
  if (!input.gateOn) return { ok: true };
  const mappings = (e: string) => `create user namespace manager: kubelet mappings: ${e}`;
  const user = lookupKubeletUser(input);
  if ('undecidable' in user) return { undecidable: `the user namespace manager's lookup of the "kubelet" user: ${user.undecidable}`, path: PASSWD_PATH };
  if ('error' in user) return { ok: false, error: mappings(user.error), path: PASSWD_PATH };
  if (user.found) {
    const where = 'a "kubelet" user exists, so kubelet asks getsubids for its subordinate IDs';
    if (input.wrapped) return { undecidable: `${where}, on the PATH its wrapper gives it, which node-check does not model`, path: PASSWD_PATH };
    const candidates = getsubidsCandidates(input.path);
    if (!candidates) return { undecidable: `${where}: kubelet's PATH has a relative entry (${input.path})`, path: PASSWD_PATH };
    for (const candidate of candidates) {
      const fact = fileOf(candidate);
      if (!fact) return { undecidable: `${where}: ${candidate} was not read`, path: candidate };
      if (fact.exists && fact.type !== 'directory' && (fact.mode & 0o111) !== 0) {
        return { undecidable: `${where} (${candidate}), and its output (the ranges in /etc/subuid or another source) is not modelled`, path: candidate };
      }
      const dir = candidate.slice(0, candidate.lastIndexOf('/'));
      if (!fact.exists && !input.hostRoot && fileOf(dir)?.exists !== true) return { undecidable: `${where}: this root has no ${dir}, so whether the node has ${candidate} is not known`, path: candidate };
    }
    return { ok: false, error: mappings(`exec: ${goQuote(GETSUBIDS)}: executable file not found in $PATH`), path: PASSWD_PATH };
  }
  if (input.maxPods > DEFAULT_RANGES) {
    return { ok: false, error: `create user namespace manager: kubelet user assigned IDs are not enough to support ${input.maxPods} pods`, path: PASSWD_PATH };
  }
  return { ok: true };
}

type Lookup = { readonly found: boolean } | { readonly error: string } | { readonly undecidable: string };

function lookupKubeletUser(input: UserNamespaceInput): Lookup {
  const fact = input.passwd;
  if (!fact) return { undecidable: `${PASSWD_PATH} was not read` };
  if (!fact.exists) {
    if (fact.code !== 'ENOENT') return { undecidable: `${PASSWD_PATH} cannot be read here (${fact.code})` };
    if (input.lookup === 'pure-go') return { error: `open ${PASSWD_PATH}: no such file or directory` };
    if (input.goMinors.first >= GO_CGO_ENOENT_UNKNOWN) return { found: false };
    if (input.goMinors.last < GO_CGO_ENOENT_UNKNOWN) return { error: `user: lookup username ${KUBELET_USER}: no such file or directory` };
    return { undecidable: `there is no ${PASSWD_PATH}, and this minor's releases were built with Go 1.${input.goMinors.first}-1.${input.goMinors.last}: from Go 1.23 glibc's ENOENT means an unknown user (default mappings), before it is an error` };
  }
  if (fact.type !== 'file' || !fact.content?.ok) return { undecidable: `${PASSWD_PATH} is not a regular file node-check reads` };
  const entry = kubeletUserEntry(fact.content.data);
  if (entry === 'malformed') return input.lookup === 'pure-go' ? { found: false } : { undecidable: `a line of ${PASSWD_PATH} names the "kubelet" user in a form Go's parser rejects and glibc's may accept` };
  return { found: entry === 'found' };
}
