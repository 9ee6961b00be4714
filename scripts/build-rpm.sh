#!/usr/bin/env bash
# Builds the node-check RPM (packaging/rpm/node-check.spec) from the bundle and the repository's
# files, offline: every source is copied into a private _sourcedir, rpmbuild runs with its own
# _topdir, and nothing is downloaded. The RPM is copied to OUT_DIR (default dist/rpm).
#
#   scripts/build-rpm.sh [OUT_DIR]        needs dist/node-check.cjs (npm run build) and rpmbuild
#
# Prints the path of each RPM written, one per line, on stdout.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="${1:-$repo/dist/rpm}"

command -v rpmbuild >/dev/null 2>&1 || { echo "build-rpm: rpmbuild not found (Debian/Ubuntu: apt-get install rpm; RHEL: dnf install rpm-build)" >&2; exit 1; }
bundle="$repo/dist/node-check.cjs"
[[ -f $bundle ]] || { echo "build-rpm: $bundle is missing; run \`npm run build\` first" >&2; exit 1; }

version="$(node -p 'require(process.argv[1]).version' "$repo/package.json")"
# RPM versions cannot contain "-"; 1.2.0-rc.1 becomes 1.2.0~rc.1 (sorts before 1.2.0).
rpm_version="${version//-/\~}"

topdir="$(mktemp -d "${TMPDIR:-/tmp}/node-check-rpm.XXXXXX")"
trap 'rm -rf "$topdir"' EXIT
sources="$topdir/SOURCES"
mkdir -p "$sources"
cp -p "$bundle" "$repo/dist/node-check.bundle.cjs" \
  "$repo/systemd/kubelet.service.d/90-node-check.conf" \
  "$repo/systemd/node-check.service" \
  "$repo/systemd/node-check-precheck.service" \
  "$repo/systemd/node-check.catalog" \
  "$repo/packaging/config/config.yaml" \
  "$repo/LICENSE" \
  "$repo/README.md" \
  "$repo/docs/fallback.md" \
  "$repo/docs/json.md" \
  "$repo/docs/operations.md" \
  "$repo/docs/findings.md" \
  "$repo/packaging/prometheus/node-check.rules.yaml" \
  "$sources/"

# _sourcedir: the sources above, never the network. The macros the spec falls back on
# (_unitdir, _journalcatalogdir) come from systemd's rpm macros where those are installed.
rpmbuild -bb --quiet \
  --define "_topdir $topdir" \
  --define "_sourcedir $sources" \
  --define "nc_version $rpm_version" \
  "$repo/packaging/rpm/node-check.spec" >&2

mkdir -p "$out_dir"
shopt -s nullglob
built=("$topdir"/RPMS/noarch/*.rpm)
[[ ${#built[@]} -gt 0 ]] || { echo "build-rpm: rpmbuild wrote no RPM" >&2; exit 1; }
for rpm in "${built[@]}"; do
  cp -p "$rpm" "$out_dir/"
  printf '%s\n' "$out_dir/$(basename "$rpm")"
done
