#!/bin/bash
# Runs a command on a stand-in RHCOS host, for test/packaging/podman.test.ts: this machine's own
# root, seen through a private mount namespace (unshare --mount, made by the caller) in which
#   - the files of HOST_FILES/etc and HOST_FILES/usr lie over /etc and /usr (a read-only overlay:
#     the node's kubelet unit, drop-ins, provider config and plugin directory at their real paths);
#   - RUN_DIR is the host's /run, and a real systemd-journald listens on /run/systemd/journal
#     (volatile storage: RUN_DIR/log/journal);
#   - writes under /var/lib (podman's blob info cache, /var/lib/containers/cache) go to an overlay
#     whose upper layer is in VAR_DIR, and VAR_DIR/tmp is /var/tmp (podman's image copies).
# Nothing of this machine is changed: every mount dies with the namespace.
#
# usage: unshare --mount --propagation private bash rhcos-host.sh HOST_FILES RUN_DIR VAR_DIR COMMAND...
set -euo pipefail
files=$1 run=$2 var=$3
shift 3

for top in etc usr; do
  if [[ -d $files/$top ]]; then
    mount -t overlay overlay -o "ro,lowerdir=$files/$top:/$top" "/$top"
  fi
done
mount --bind "$run" /run
mkdir -p "$var/lib.upper" "$var/lib.work" "$var/tmp"
mount -t overlay overlay -o "lowerdir=/var/lib,upperdir=$var/lib.upper,workdir=$var/lib.work" /var/lib
mount --bind "$var/tmp" /var/tmp

mkdir -p /run/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\nRateLimitBurst=0\n' >/run/systemd/journald.conf.d/node-check-test.conf
/lib/systemd/systemd-journald &
journald=$!
# shellcheck disable=SC2317 # called by the EXIT trap
stop_journald() {
  # SIGTERM: journald syncs to /run/log/journal before it exits.
  kill -TERM "$journald" 2>/dev/null || true
  wait "$journald" 2>/dev/null || true
}
trap stop_journald EXIT
for _ in $(seq 100); do
  [[ -S /run/systemd/journal/socket ]] && break
  sleep 0.05
done
[[ -S /run/systemd/journal/socket ]] || { echo "rhcos-host.sh: systemd-journald did not open its socket" >&2; exit 99; }

set +e
"$@"
rc=$?
exit "$rc"
