// The sandbox's host, recorded and replayed through node-check's own host discovery
// (src/discover/host-facts.ts HostIo): the judge records every read discoverHostFacts makes on
// the machine the sandbox runs on; the comparison replays them, so node-check sees the same
// swap, cgroup mode, kernel tunables and online CPUs the real kubelet saw. The CRI sockets are
// the fake CRI's, per case.

/** Runs discoverHostFacts on this machine and returns the reads it made. */
export function recordHostIo(api) {
  const files = {};
  const statfs = {};
  const recorder = {
    readFile(file) {
      const result = api.NODE_HOST_IO.readFile(file);
      files[file] = result.ok ? result.text : { code: result.code };
      return result;
    },
    stat(file) {
      return api.NODE_HOST_IO.stat(file);
    },
    statfsType(file) {
      const type = api.NODE_HOST_IO.statfsType(file);
      statfs[file] = type ?? null;
      return type;
    },
  };
  api.discoverHostFacts({ root: '/', io: recorder });
  return { files, statfs };
}

/** A HostIo answering from a recording; `sockets` are the unix socket paths the fake CRI listened on. */
export function replayHostIo(recording, sockets) {
  return {
    readFile(file) {
      const value = recording.files[file];
      if (value === undefined) return { ok: false, code: 'ENOENT' };
      return typeof value === 'string' ? { ok: true, text: value } : { ok: false, code: value.code };
    },
    stat(file) {
      return sockets.includes(file) ? { ok: true, type: 'socket' } : { ok: false, code: 'ENOENT' };
    },
    statfsType(file) {
      return recording.statfs[file] ?? undefined;
    },
  };
}
