/**
 * Property tests for every parser that reads node input: it never
 * throws, stays within its bounds, and the same input gives the same answer. Inputs are drawn
 * from each format's own special characters, so that the generated texts reach the parsers' edge
 * cases and not only their "not a token" paths. Seeds of failures found are kept in `examples`.
 */
import t from 'tap';
import fc from 'fast-check';
import { parseUnitFile } from '../../src/systemd/unit-file.js';
import { parseEnvFile } from '../../src/systemd/env-file.js';
import { extractFirstWord, splitWords } from '../../src/systemd/extract-word.js';
import { expandSpecifiers } from '../../src/systemd/specifiers.js';
import { parseUnitName } from '../../src/systemd/unit-name.js';
import { expandArgv } from '../../src/systemd/env-expand.js';
import { parseKubeletFlags, scanKubeletArgs } from '../../src/kubelet/flags.js';
import { yamlToGoJson } from '../../src/credentials/go-yaml.js';
import { providerEntriesIn } from '../../src/credentials/provider-names.js';
import { goJsonCheckValid, parseGoJson, scanJsonSyntax } from '../../src/go/json.js';
import { parseGoDuration } from '../../src/go/duration.js';
import { parseGoUrl } from '../../src/go/url.js';
import { yamlNestingBound } from '../../src/limits/nesting.js';
import { MAX_ARG_STRLEN_ANY_PAGE, MAX_ARGV_BYTES } from '../../src/limits/bounds.js';

const RUNS = Number(process.env.NODE_CHECK_PROPERTY_RUNS ?? 300);
const params = { numRuns: RUNS };

/** Text over an alphabet: the format's syntax characters, letters, and awkward code points. */
const textOf = (syntax: string, maxLength = 200) =>
  fc.string({ unit: fc.oneof(fc.constantFrom(...syntax.split('')), fc.constantFrom('a', 'Z', '0', '9', '.', '_'), fc.constantFrom('\u0000', '\u0085', '\u2028', '\ufeff', '\u00e9', '\ud83d\ude00', '\ud800')), maxLength });

const YAML_SYNTAX = '[]{}:,-?#&*!|>\'"%@` \t\n\r\\~';
const UNIT_SYNTAX = '[]=\\"\' \t\n\r#;$%{}-+@!:|';
const WORDS = '\\"\' \t\n$%{}abcxnrt01u';


const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v)) === JSON.stringify(b, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v));

function property<T>(tap: typeof t, name: string, arbitrary: fc.Arbitrary<T>, check: (input: T) => boolean | void, examples: T[] = []) {
  tap.test(name, async (t) => {
    t.doesNotThrow(() => fc.assert(fc.property(arbitrary, check), { ...params, examples: examples.map((e) => [e] as [T]) }));
  });
}

property(t, 'systemd unit files', textOf(UNIT_SYNTAX), (text) => {
  const a = parseUnitFile(text, '/etc/systemd/system/kubelet.service');
  return same(a, parseUnitFile(text, '/etc/systemd/system/kubelet.service'));
}, ['[Service]\nExecStart=/bin/x \\\n', '[Service\n', '\\']);

property(t, 'environment files', textOf(UNIT_SYNTAX), (text) => {
  const a = parseEnvFile(text, '/etc/env');
  for (const [key, value] of Object.entries(a.variables)) if (key.length + value.length > text.length) return false;
  return same(a, parseEnvFile(text, '/etc/env'));
}, ['A="\\', "A='", 'export A=b\\\n']);

property(t, 'extract_first_word and splitWords', fc.tuple(textOf(WORDS), fc.record({ unquote: fc.boolean(), cunescape: fc.boolean(), cunescapeRelax: fc.boolean(), relax: fc.boolean() })), ([text, flags]) => {
  let at: number | undefined = 0;
  for (let guard = 0; guard <= text.length + 1; guard++) {
    const r = extractFirstWord(text, at, flags);
    if (r.kind !== 'word') break;
    if (r.next !== undefined && at !== undefined && r.next <= at) return false; // always advances
    at = r.next;
  }
  const words = splitWords(text, flags);
  if (words && words.join('').length > text.length * 4) return false;
  return same(words, splitWords(text, flags));
});

const unit = parseUnitName('kubelet@a-b.service')!;
property(t, 'unit specifiers', textOf('%nNpPiIfjJt'), (text) => {
  const a = expandSpecifiers(text, unit);
  return same(a, expandSpecifiers(text, unit));
});

property(t, 'ExecStart environment expansion stays within execve limits', fc.tuple(fc.array(textOf('${}$ A', 20), { maxLength: 20 }), fc.string({ maxLength: 50 }), fc.integer({ min: 0, max: 200_000 })), ([words, value, repeat]) => {
  const env = new Map([['A', value.repeat(Math.ceil(repeat / Math.max(1, value.length)))]]);
  const r = expandArgv(words, env);
  const bytes = r.argv.reduce((sum, arg) => sum + Buffer.byteLength(arg) + 1, 0);
  return bytes <= MAX_ARGV_BYTES && r.argv.every((arg) => Buffer.byteLength(arg) < MAX_ARG_STRLEN_ANY_PAGE) && same(r, expandArgv(words, env));
});

property(t, 'kubelet flags (pflag)', fc.array(fc.oneof(textOf('-=', 12), fc.constantFrom('--', '-', '--config', '--image-credential-provider-config=', '-v', '--feature-gates', '--x=y=z')), { maxLength: 12 }), (args) => {
  scanKubeletArgs(args);
  return same(parseKubeletFlags(args), parseKubeletFlags(args));
});

property(t, 'go-yaml to JSON', fc.oneof(textOf(YAML_SYNTAX, 300), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1'))), (text) => {
  const bytes = Buffer.from(text, 'utf8');
  const a = yamlToGoJson(bytes, { capitalisedMapKeyError: false });
  if (!a.ok && typeof a.error !== 'string') return false;
  providerEntriesIn(text);
  yamlNestingBound(text);
  return same(a, yamlToGoJson(bytes, { capitalisedMapKeyError: false }));
}, ['- - - - - x', '[[[[', '? ? ? x', 'a: &a [*a]', '"\\', "'", '%YAML 1.1\n---\n', '!!binary x', '<<: [*x]']);

property(t, 'Go JSON', fc.oneof(textOf('[]{}:,"\\ tfnrue0123456789.eE+-', 200), fc.json()), (text) => {
  const bytes = Buffer.from(text, 'utf8');
  const error = goJsonCheckValid(bytes);
  const again = goJsonCheckValid(bytes);
  if (error !== again) return false;
  if (error === undefined) return same(parseGoJson(bytes), parseGoJson(bytes));
  return typeof error === 'string';
}, ['[', '{"a":', '"\\u', '1e999999']);

// goJsonCheckValid accepts what JSON.parse accepts without running Go's scanner: the two must agree.
property(t, 'Go JSON: the JSON.parse shortcut agrees with encoding/json\'s scanner', fc.oneof(textOf('[]{}:,"\\ tfnrue0123456789.eE+-/bu', 200), fc.json(), fc.json().map((j) => `\ufeff${j}`), fc.json().map((j) => `${j} x`)), (text) => {
  const bytes = Buffer.from(text, 'utf8');
  return goJsonCheckValid(bytes) === scanJsonSyntax(bytes);
}, ['01', '-', '1.', '.5', '"\\x"', '"\t"', '[1,]', '{"a":1,}', '\u2028', '" \u2028 "', '"\\ud800"', 'nul', '1 2', '[]]', '\ufeff{}', '{} ', '\t\n\r 0', '"\u0000"', '1E+2', '-0.0e-0']);

property(t, 'Go durations', textOf('0123456789.+-nsuµμmh', 40), (text) => {
  const a = parseGoDuration(text);
  return (typeof a === 'bigint' || typeof a === 'string') && same(a, parseGoDuration(text));
}, ['9223372036854775807ns', '9223372036854775808ns', '.s', '1.0000000000000000000000001h']);

property(t, 'Go URLs', textOf(':/?#[]@!$&\'()*+,;=%25 \u007f', 120), (text) => {
  return same(parseGoUrl(text), parseGoUrl(text));
}, ['http://[::1', '%zz', 'a:b:c', '//@:']);
