#!/usr/bin/env bash
# Builds the node-check RPM (packaging/rpm/node-check.spec) from the bundle and the repository's
# files, offline: every source is copied into a private _sourcedir, rpmbuild runs with its own
# _topdir, and nothing is downloaded. The RPM is copied to OUT_DIR (default dist/), the source RPM
# to OUT_DIR/srpm.
#
#   npm run package:rpm                   build, then this script
#   scripts/build-rpm.sh [OUT_DIR]        needs dist/ from `npm run build`, and rpmbuild
#
# Prints the paths of the RPM and the source RPM, one per line, on stdout.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out_dir="${1:-$repo/dist}"

command -v rpmbuild >/dev/null 2>&1 || { echo "build-rpm: rpmbuild not found (Debian/Ubuntu: apt-get install rpm; RHEL: dnf install rpm-build)" >&2; exit 1; }
bundle="$repo/dist/node-check.cjs"
for built_file in "$bundle" "$repo/dist/node-check.bundle.cjs.map" "$repo/dist/THIRD_PARTY_LICENSES" "$repo/dist/bundled-packages.json"; do
  [[ -f $built_file ]] || { echo "build-rpm: $built_file is missing; run \`npm run build\` first" >&2; exit 1; }
done

version="$(node -p 'require(process.argv[1]).version' "$repo/package.json")"
# RPM versions cannot contain "-"; 1.2.0-rc.1 becomes 1.2.0~rc.1 (sorts before 1.2.0).
rpm_version="${version//-/\~}"

topdir="$(mktemp -d "${TMPDIR:-/tmp}/node-check-rpm.XXXXXX")"
trap 'rm -rf "$topdir"' EXIT
sources="$topdir/SOURCES"
mkdir -p "$sources"
cp -p "$bundle" "$repo/dist/node-check.bundle.cjs" "$repo/dist/node-check.bundle.cjs.map" \
  "$repo/dist/THIRD_PARTY_LICENSES" \
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
  "$repo/dist/node-check.1" \
  "$repo/docs/node-check-report.schema.json" \
  "$repo/docs/alertmanager-inhibit.yaml" \
  "$repo/packaging/npd/node-check-plugin.json" \
  "$repo/dist/completion/node-check.bash" \
  "$repo/dist/completion/_node-check" \
  "$sources/"
# The runbooks as one source: the alerts link to each of them by name.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$repo/docs" -cf - runbooks | gzip -n > "$sources/runbooks.tar.gz"

# What the bundle contains, from scripts/build.mjs: one `Provides: bundled(npm(NAME)) = VERSION`
# per package (as Fedora's and RHEL's guidelines ask of bundled code), and their licences.
# shellcheck disable=SC2016 # ${…} below is JavaScript's, not the shell's
node -e '
  const packages = require(process.argv[1]);
  const lines = packages.map((p) => `Provides: bundled(npm(${p.name})) = ${p.version}`);
  require("node:fs").writeFileSync(process.argv[2], lines.join("\n") + "\n");
  const licences = [...new Set(packages.map((p) => p.license))].filter((l) => l !== "Apache-2.0").sort();
  process.stdout.write(licences.join(" AND "));
' "$repo/dist/bundled-packages.json" "$sources/bundled.inc" > "$topdir/licenses"
bundled_licenses="$(cat "$topdir/licenses")"

# On RHEL, CentOS and Fedora the spec's BuildRequires (systemd-rpm-macros) is checked and brings
# the systemd macros. A host whose rpm is not its package manager (Debian: rpm does not know its
# own package) has neither that package nor the macros: the build requirements cannot be checked
# there, and packaging/rpm/macros.systemd-fallback stands in for the macros.
extra=()
if ! rpm -q rpm >/dev/null 2>&1; then
  extra+=(--nodeps)
fi
if [[ $(rpm --eval '%{?systemd_post:defined}') != defined ]]; then
  echo "build-rpm: rpmbuild has no systemd rpm macros; using packaging/rpm/macros.systemd-fallback (RHEL 9's scriptlets)" >&2
  extra+=(--load "$repo/packaging/rpm/macros.systemd-fallback")
fi

# The spec as built: the repository's, with the values above fixed in it, so that the source RPM
# rebuilds by itself (`rpmbuild --rebuild`, mock, koji) without this script.
mkdir -p "$topdir/SPECS"
spec="$topdir/SPECS/node-check.spec"
{
  printf '# Written by scripts/build-rpm.sh from packaging/rpm/node-check.spec.\n'
  printf '%%global nc_version %s\n%%global nc_bundled_licenses %s\n' "$rpm_version" "$bundled_licenses"
  cat "$repo/packaging/rpm/node-check.spec"
} > "$spec"

# _sourcedir: the sources above, never the network.
rpmbuild -ba --quiet "${extra[@]}" \
  --define "_topdir $topdir" \
  --define "_sourcedir $sources" \
  "$spec" >&2

# The binary RPM in OUT_DIR (so that `dnf install dist/*.rpm` installs just it), the source RPM
# in OUT_DIR/srpm.
mkdir -p "$out_dir/srpm"
shopt -s nullglob
built=("$topdir"/RPMS/noarch/*.rpm)
source_rpms=("$topdir"/SRPMS/*.src.rpm)
[[ ${#built[@]} -eq 1 && ${#source_rpms[@]} -eq 1 ]] || { echo "build-rpm: rpmbuild did not write one RPM and one source RPM" >&2; exit 1; }
cp -p "${built[0]}" "$out_dir/"
cp -p "${source_rpms[0]}" "$out_dir/srpm/"
printf '%s\n' "$out_dir/$(basename "${built[0]}")" "$out_dir/srpm/$(basename "${source_rpms[0]}")"
