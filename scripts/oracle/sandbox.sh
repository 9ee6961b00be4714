#!/bin/sh
# Runs as PID 1 of fresh mount, PID, network and UTS namespaces (unshare, from judge.mjs): lays the
# case's node root under a throw-away overlay, binds the kubelet binary at the unit's ExecStart
# path, starts the fake CRI on the case's endpoints, then runs kubelet chrooted into the root with
# the case's argv. The exit status goes to $work/exit. Everything mounted here goes with the
# namespace; nothing is written to the case's files (the overlay's upper layer is a tmpfs).
# Kubelet's environment is PATH and HOME, then the unit's own (NAME=VALUE, as systemd gives it).
#
#   sandbox.sh WORK CASE_ROOT KUBELET KUBELET_PATH FAKECRI CGROUP_DRIVER [ENDPOINT…] -- [NAME=VALUE…] -- ARGV…
set -eu
work=$1; lower=$2; kubelet=$3; kubelet_path=$4; fakecri=$5; cri_driver=$6; shift 6
endpoints=
while [ "$1" != -- ]; do endpoints="$endpoints --endpoint $1"; shift; done
shift
hostname oracle-node
ip link set lo up 2>/dev/null || true
mount --make-rprivate /
mount -t tmpfs -o mode=0755 tmpfs "$work/rw"
mkdir "$work/rw/upper" "$work/rw/work" "$work/root"
mount -t overlay overlay -o "lowerdir=$lower,upperdir=$work/rw/upper,workdir=$work/rw/work" "$work/root"
r=$work/root
# The kernel interfaces kubelet reads are the host's (as in a privileged kind node): /proc of this
# PID namespace, /sys and /dev (with /dev/kmsg, which the OOM watcher opens) bound from the host.
mkdir -p "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
mount -t proc proc "$r/proc"
# Read-only kernel tunables: kubelet with protectKernelDefaults false writes vm.* and kernel.* (the
# container manager's setupKernelTunables, after "Started kubelet"), which are the host's, not the namespace's.
mount --bind "$r/proc/sys" "$r/proc/sys" && mount -o remount,bind,ro "$r/proc/sys"
mount --rbind /sys "$r/sys"
mount --rbind /dev "$r/dev"
mount -t tmpfs tmpfs "$r/tmp"
case $kubelet_path in /*) ;; *) echo "sandbox: ExecStart path $kubelet_path is not absolute" >&2; exit 97;; esac
if [ -L "$r$kubelet_path" ] || [ -L "$r$(dirname "$kubelet_path")" ]; then echo "sandbox: $kubelet_path is a symlink in the case root" >&2; exit 97; fi
mkdir -p "$r$(dirname "$kubelet_path")"
[ -e "$r$kubelet_path" ] || : > "$r$kubelet_path"
mount --bind -o ro "$kubelet" "$r$kubelet_path"
if [ -n "$endpoints" ]; then
  # fakecri (static) runs chrooted too, so the endpoint's path resolves as kubelet resolves it.
  mkdir -p "$r/.oracle"; : > "$r/.oracle/fakecri"
  mount --bind -o ro "$fakecri" "$r/.oracle/fakecri"
  chroot "$r" /.oracle/fakecri --cgroup-driver "$cri_driver" $endpoints > "$work/fakecri.log" 2>&1 &
  for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do grep -q listening "$work/fakecri.log" 2>/dev/null && break; sleep 0.1; done
fi
# "NAME=VALUE… -- ARGV…" becomes "NAME=VALUE… chroot ROOT ARGV…" (the first -- only), for env.
seen=
for arg do
  shift
  if [ -z "$seen" ] && [ "$arg" = -- ]; then seen=1; set -- "$@" chroot "$r"; else set -- "$@" "$arg"; fi
done
set +e
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@" 2>&1
echo $? > "$work/exit"
