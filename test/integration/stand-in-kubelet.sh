#!/bin/sh
# A stand-in for kubelet 1.28 in the end-to-end tests: it refuses to start exactly where kubelet
# 1.28 does because of its credential-provider flags, and otherwise runs until stopped.
#
# What kubelet 1.28 does (pkg/credentialprovider/plugin/plugin.go RegisterCredentialProviderPlugins,
# called from pkg/kubelet/kuberuntime/kuberuntime_manager.go NewKubeGenericRuntimeManager, which
# logs "Failed to register CRI auth plugins" err=... and calls os.Exit(1); plugin.go at
# v1.28.15):
#   1. registration runs when either flag is non-empty;
#   2. stat(bin dir): "plugin binary directory <dir> did not exist";
#   3. read the config: "credential provider config path is empty" /
#      "unable to read external registry credential provider configuration from ...";
#   4. per provider, in order: stat(<bin dir>/<name>) (no exec-bit check before 1.30):
#      "plugin binary executable <bin dir>/<name> did not exist".
# Not done here: decoding and validating the config (apiVersion, matchImages, cache duration...);
# the tests only give it valid configs. Provider names are read from the YAML's `name:` keys of the
# items of the top-level `providers:` list (block style, as MCO writes it), quotes removed.
#
# When every check passes it records its argv (one argument per line) in /run/stand-in-kubelet.argv,
# tells systemd it is ready (the unit is Type=notify, like the OpenShift kubelet unit), and sleeps.
set -u

if [ "${1-}" = --version ]; then
  echo 'Kubernetes v1.28.7'
  exit 0
fi

fail() {
  # klog's structured error line, as kubelet writes it to stderr.
  printf 'E%s %7d kuberuntime_manager.go:287] "Failed to register CRI auth plugins" err="%s"\n' \
    "$(date -u +%m%d\ %H:%M:%S.000000)" "$$" "$1" >&2
  exit 1
}

bin_dir=
config=
want=
for arg in "$@"; do
  if [ -n "$want" ]; then
    eval "$want=\$arg"
    want=
    continue
  fi
  case $arg in
    --image-credential-provider-bin-dir=*) bin_dir=${arg#*=} ;;
    --image-credential-provider-config=*) config=${arg#*=} ;;
    --image-credential-provider-bin-dir) want=bin_dir ;;
    --image-credential-provider-config) want=config ;;
  esac
done
if [ -n "$want" ]; then
  echo "E flag needs an argument: $(echo "--image-credential-provider-$want" | tr _ -)" >&2
  exit 1
fi

if [ -n "$bin_dir$config" ]; then
  [ -d "$bin_dir" ] || fail "plugin binary directory $bin_dir did not exist"
  [ -n "$config" ] || fail 'credential provider config path is empty'
  { [ -f "$config" ] && [ -r "$config" ]; } ||
    fail "unable to read external registry credential provider configuration from \\\"$config\\\": open $config: no such file or directory"
  # The providers' names: the `name:` keys at the content column of the items of `providers:`
  # (deeper list items, like matchImages and args, have another column and are skipped).
  names=$(awk '
    /^[^ \t#-]/ { inside = ($0 ~ /^providers:[ \t]*$/); column = 0; next }
    !inside { next }
    {
      text = $0
      if (match(text, /^ *- +/)) {
        if (column == 0) column = RLENGTH
        if (RLENGTH != column) next
      } else if (!(column > 0 && match(text, /^ +/) && RLENGTH == column)) next
      text = substr(text, column + 1)
      if (text !~ /^name:/) next
      sub(/^name:[ \t]*/, "", text); sub(/[ \t]+#.*$/, "", text); sub(/[ \t]+$/, "", text)
      if (text ~ /^".*"$/ || text ~ /^\047.*\047$/) text = substr(text, 2, length(text) - 2)
      print text
    }
  ' "$config")
  # One name per line (a name with a newline in it cannot name an existing file anyway).
  printf '%s\n' "$names" | while IFS= read -r name; do
    [ -n "$name" ] || continue
    [ -e "$bin_dir/$name" ] || fail "plugin binary executable $bin_dir/$name did not exist"
  done || exit 1
fi

printf '%s\n' "$@" > /run/stand-in-kubelet.argv
systemd-notify --ready
exec sleep infinity
