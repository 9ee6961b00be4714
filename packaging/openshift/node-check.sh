#!/bin/bash
# node-check on RHCOS, which has no Node.js: runs the node-check image with podman against the
# host's root mounted at /host. Installed as /usr/local/bin/node-check by the MachineConfig that
# scripts/gen-openshift.mjs generates, which also writes the image, by digest, into `image=` below.
# kubelet's drop-in runs `/bin/bash /usr/local/bin/node-check preflight --no-metrics`;
# node-check-image-pull.service runs `node-check pull-image` before kubelet; admins run
# `node-check`, `node-check explain <id>`, `node-check fallback status` the same way over SSH.
#
# How the pieces meet (see README.md here):
# - kubelet's start never waits for a registry: the image is pulled by its own unit, and `run`
#   uses --pull=never within a budget of NODE_CHECK_PODMAN_TIMEOUT (10) seconds. No image, or no
#   answer in time, is "cannot tell" (2).
# - node-check gets `--root /host`: it reads the host under /host and resolves every symlink
#   inside it. It writes the fallback's files under /host/run/..., so the host's /run is mounted
#   read-write at /host/run (on top of the read-only / at /host; podman's "ro" is not recursive,
#   which must not be relied on either way).
# - With --root other than "/", node-check never runs `systemctl daemon-reload`. This script does,
#   on the host, when node-check added, changed or removed a fallback drop-in.
# - --pid=host: the fallback lock (/run/node-check/lock) records a pid; it must mean the same
#   process to every node-check on the host, in a container or not.
# - The journal: logger in the image writes to the host's journald through its socket.
#   Entries carry SYSLOG_IDENTIFIER=node-check (journalctl -t node-check).
# - Exit codes are node-check's (0, 1, 2, 64); podman's own failures become 2 ("cannot tell"), so
#   a strict drop-in (no "-") never reads a podman error as a verdict.
set -u

image="${NODE_CHECK_IMAGE:-@IMAGE@}"
# The host's settings file; node-check reads it as /host/... when it exists.
config="${NODE_CHECK_CONFIG:-/etc/node-check/config.yaml}"
# Bound on one run (kubelet's start waits for it): podman's --timeout stops the container, and
# `timeout` the podman client 2 s later.
budget="${NODE_CHECK_PODMAN_TIMEOUT:-10}"
# Bounds on pulling: attempts, seconds per attempt, and the pause before the next attempt (times
# the attempt's number); the pull unit's TimeoutStartSec= bounds the whole.
pull_attempts=3
pull_budget=20
pull_pause="${NODE_CHECK_PULL_PAUSE:-5}"
authfile=/var/lib/kubelet/config.json
catalog=/usr/local/lib/systemd/catalog/node-check.catalog
catalog_db=/var/lib/systemd/catalog/database

# A line on stderr at syslog priority $1; the "<N>" prefix only when stderr is the journal
# (kubelet's ExecStartPre=, the pull unit: $JOURNAL_STREAM names it), never on a terminal.
say() {
  local priority=$1
  shift
  if [[ -n ${JOURNAL_STREAM:-} && $(stat -L -c '%d:%i' "/proc/$$/fd/2" 2>/dev/null) == "$JOURNAL_STREAM" ]]; then
    printf '<%s>' "$priority" >&2
  fi
  printf 'node-check: %s\n' "$*" >&2
}

# The fallback drop-ins node-check may write, with their contents: a change means a reload.
fallback_state() {
  local dropin
  for dropin in /run/systemd/system/*.d/99-node-check-fallback.conf; do
    [[ -f $dropin ]] && { printf '%s\n' "$dropin"; cat -- "$dropin"; }
  done | cksum
}

# Pulls the image unless it is here already (then no registry is contacted), with the node's
# pull secret and registry mirrors, a few times before giving up.
pull_image() {
  podman image exists "$image" && return 0
  local attempt auth=()
  [[ -f $authfile ]] && auth=(--authfile "$authfile")
  for ((attempt = 1; attempt <= pull_attempts; attempt++)); do
    timeout --kill-after=5 "$pull_budget" podman pull --quiet "${auth[@]}" "$image" >/dev/null && return 0
    ((attempt < pull_attempts)) && sleep $((attempt * pull_pause))
  done
  say 3 "could not pull $image ($pull_attempts attempts); kubelet's preflight says \"cannot tell\" until it is here (node-check pull-image)"
  return 1
}

case ${1:-} in
  serve)
    echo "node-check: on OpenShift, serve runs as the DaemonSet in node-check-serve.yaml" >&2
    exit 64
    ;;
  pull-image)
    pull_image
    exit
    ;;
esac

args=(--root /host)
[[ -f $config ]] && args+=(--config-file "/host$config")
# node-check never runs anything under --root, so kubelet's version is asked here, on the host.
if version="$(timeout 5 kubelet --version 2>/dev/null)" && [[ -n $version ]]; then
  args+=(--kubelet-version "$version")
fi

podman_opts=(--rm --pull=never --timeout "$budget" --net=none --privileged --pid=host
  --volume /:/host:ro
  --volume /run:/host/run
  --volume /run/systemd/journal:/run/systemd/journal)
[[ -t 0 && -t 1 ]] && podman_opts+=(--interactive --tty)

# journalctl -x on RHCOS: /usr is read-only, so the catalog lives under /usr/local.
if [[ -f $catalog && $catalog -nt $catalog_db ]]; then
  journalctl --update-catalog >/dev/null 2>&1 || true
fi

before="$(fallback_state)"
started=$SECONDS
timeout --kill-after=2 $((budget + 2)) podman run "${podman_opts[@]}" "$image" "$@" "${args[@]}"
rc=$?
after="$(fallback_state)"

if [[ $before != "$after" ]]; then
  if ! systemctl daemon-reload; then
    say 4 "systemctl daemon-reload failed; the fallback change applies from the next reload"
  fi
fi

case $rc in
  0 | 1 | 2 | 64) exit "$rc" ;;
esac
if ((SECONDS - started >= budget)); then
  say 4 "no answer within ${budget} s (podman exit $rc)"
elif ! podman image exists "$image"; then
  say 4 "image $image is not on this node; node-check-image-pull.service pulls it before kubelet (now: node-check pull-image)"
else
  say 4 "podman run $image failed (exit $rc)"
fi
exit 2
