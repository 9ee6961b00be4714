/**
 * tlsCipherSuites / --tls-cipher-suites and tlsMinVersion / --tls-min-version as InitializeTLS
 * (cmd/kubelet/app/server.go, 1.24-1.37, called by UnsecuredDependencies: "failed to construct
 * kubelet dependencies: %w") reads them through component-base cli/flag/ciphersuites_flag.go
 * (identical at v0.24.17 … v0.36.5): TLSCipherSuites first, then TLSVersion; the first unknown
 * name is the error. Nothing validates them earlier.
 */
import { goQuote } from '../../go/quote.js';
import type { KubeletConfigObject } from './decode.js';

/**
 * The names TLSCipherSuites accepts: Go's crypto/tls CipherSuites() and InsecureCipherSuites()
 * (cipher_suites.go; the union is the same in every Go release kubelet 1.24-1.37 was built with)
 * and the two legacy CHACHA20 names ciphersuites_flag.go adds.
 */
export const TLS_CIPHER_SUITE_NAMES: ReadonlySet<string> = new Set([
  'TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_RSA_WITH_AES_256_CBC_SHA', 'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_RSA_WITH_AES_128_GCM_SHA256', 'TLS_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305',
]);

/** ciphersuites_flag.go `versions`; an empty name is the default (TLS 1.2). */
export const TLS_VERSION_NAMES: ReadonlySet<string> = new Set(['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13']);

export type TlsCheck = { readonly ok: true } | { readonly ok: false; readonly field: 'tlsCipherSuites' | 'tlsMinVersion'; readonly error: string } | { readonly undecidable: string };

/** InitializeTLS's two name checks, in its order; `error` is the text before kubelet's wrapping. */
export function checkTlsOptions(config: KubeletConfigObject): TlsCheck {
  const suites = config['tlsCipherSuites'];
  if (suites !== undefined && suites !== null) {
    if (!Array.isArray(suites) || suites.some((s) => typeof s !== 'string')) return { undecidable: 'tlsCipherSuites is not a list of names' };
    const unknown = (suites as string[]).find((s) => !TLS_CIPHER_SUITE_NAMES.has(s));
    if (unknown !== undefined) return { ok: false, field: 'tlsCipherSuites', error: `Cipher suite ${unknown} not supported or doesn't exist` };
  }
  const version = config['tlsMinVersion'];
  if (version !== undefined && version !== null) {
    if (typeof version !== 'string') return { undecidable: 'tlsMinVersion is not a string' };
    if (version !== '' && !TLS_VERSION_NAMES.has(version)) return { ok: false, field: 'tlsMinVersion', error: `unknown tls version ${goQuote(version)}` };
  }
  return { ok: true };
}
