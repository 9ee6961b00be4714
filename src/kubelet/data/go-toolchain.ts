/**
 * The Go toolchain each kubelet minor's upstream release binaries were built with, for the parts of
 * Go's standard library kubelet's behaviour depends on (crypto/x509, encoding/pem).
 *
 * PROVENANCE (read at the tags from the Go module proxy, k8s.io/kubernetes@v1.N.P):
 * - firstGo: build/build-image/cross/VERSION at v1.N.0 (v1.24.0-go1.18.1 … v1.36.0-go1.26.2, v1.37.0-go1.26.5).
 * - lastGo: .go-version at the newest patch read (v1.24.17 1.20.7, v1.25.16 1.20.10, v1.26.15
 *   1.21.8, v1.27.16 1.22.5, v1.28.15 1.22.8, v1.29.15 1.23.6, v1.30.14 1.23.10, v1.31.14 1.24.9,
 *   v1.32.13 1.24.13, v1.33.13 1.25.11, v1.34.12 1.26.5, v1.35.8 1.26.5, v1.36.5 1.26.8, v1.37.2 1.26.10).
 * - GODEBUG defaults follow the main module's go.mod (src/internal/godebugs/table.go): `go 1.16`…
 *   `go 1.22.0` in 1.24-1.31, `go 1.23.0` + `godebug default=go1.23` in 1.32, `godebug
 *   default=go1.24` in 1.33-1.34, `go1.25` in 1.35, `go1.26` in 1.36-1.37 (read at v1.N.0 and the
 *   newest patch; no x509 `godebug` line, no //go:debug in cmd/kubelet):
 *   - negativeSerialAllowed: x509negativeserial (changed in Go 1.23, old "1"): allowed up to 1.31;
 *   - rsaCrtRecompute: x509rsacrt (changed in Go 1.24, old "0": a PKCS #1 key's inconsistent CRT
 *     values are recomputed): up to 1.32.
 * Only the minor is known to node-check, so a certificate decides only when every Go minor in
 * firstGo..lastGo gives the same answer. Builds with another toolchain (distributions, forks) are
 * not modelled (docs/unverified.md).
 */
export interface KubeletGoToolchain {
  readonly firstGo: number;
  readonly lastGo: number;
  readonly negativeSerialAllowed: boolean;
  readonly rsaCrtRecompute: boolean;
}

const row = (firstGo: number, lastGo: number, negativeSerialAllowed: boolean, rsaCrtRecompute = true): KubeletGoToolchain => ({ firstGo, lastGo, negativeSerialAllowed, rsaCrtRecompute });

export const KUBELET_GO_TOOLCHAINS: Readonly<Record<number, KubeletGoToolchain>> = {
  24: row(18, 20, true),
  25: row(19, 20, true),
  26: row(19, 21, true),
  27: row(20, 22, true),
  28: row(20, 22, true),
  29: row(21, 23, true),
  30: row(22, 23, true),
  31: row(22, 24, true),
  32: row(23, 24, false),
  33: row(24, 25, false, false),
  34: row(24, 26, false, false),
  35: row(25, 26, false, false),
  36: row(26, 26, false, false),
  37: row(26, 26, false, false),
};
