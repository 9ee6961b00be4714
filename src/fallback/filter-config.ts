/**
 * The filtered credential provider config: the node's own config with some providers left out,
 * everything else as written (comments, order, apiVersion, kind). Pure: reads the contents
 * discovery captured in the FileTable. Whether kubelet reads it as intended is checked by the
 * planner, which decodes the result the way kubelet would.
 */
import { posix } from 'node:path';
import type { Document, YAMLSeq } from 'yaml';
import { yamlPackage } from '../host/yaml-package.js';
import type { FileTable } from '../model/node.js';
import type { KubeletTraits } from '../kubelet/version.js';
import { factFor } from '../credentials/registration.js';
import { nestingProblem } from '../limits/nesting.js';
import { commentSafe } from './state.js';

export interface FilterInput {
  readonly files: FileTable;
  /** --image-credential-provider-config: a file, or on 1.34+ a directory. */
  readonly configPath: string;
  readonly traits: KubeletTraits;
  /** Provider names to drop (every entry with that name). */
  readonly drop: ReadonlySet<string>;
}

export type FilterResult = { readonly content: string } | { readonly problem: string };

const YAML_OPTIONS = { uniqueKeys: false, prettyErrors: false } as const;
/** No folding of long scalars: the copy should read like the original. */
const OUTPUT_OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

export function filterProviderConfig(input: FilterInput): FilterResult {
  const sources = configFiles(input);
  if ('problem' in sources) return sources;

  const documents: { path: string; document: Document; providers: YAMLSeq }[] = [];
  for (const path of sources.files) {
    const fact = factFor(input.files, path);
    const content = fact.exists ? fact.content : undefined;
    if (!content?.ok) return { problem: `${path} was not read` };
    // Kubelet's YAML decoder reads the first document of a file; so does this copy.
    const text = content.data.toString('utf8');
    const tooDeep = nestingProblem(text);
    if (tooDeep) return { problem: `${path} is ${tooDeep}` };
    const parsed = yamlPackage().parseAllDocuments(text, YAML_OPTIONS);
    const document = Array.isArray(parsed) ? parsed[0] : undefined;
    if (!document) return { problem: `${path} holds no YAML document` };
    if (document.errors.length > 0) return { problem: `${path}: ${document.errors[0]!.message.split('\n')[0]}` };
    const providers = document.get('providers', true);
    if (!yamlPackage().isSeq(providers)) return { problem: `${path} has no providers list` };
    documents.push({ path, document, providers });
  }

  // Names come from the node: a line break in one would end the comment (pinned by test/hostile/secrets-and-names.test.ts).
  const dropped = [...input.drop].map(commentSafe).join(', ');
  try {
    if (documents.length === 1) {
      const { path, document, providers } = documents[0]!;
      providers.items = providers.items.filter((item) => !input.drop.has(providerName(item)));
      document.commentBefore = joinComments(` Written by node-check fallback: ${commentSafe(path)} without ${dropped}.`, document.commentBefore);
      return { content: document.toString(OUTPUT_OPTIONS) };
    }
    // A 1.34+ config directory of several files becomes one file. v1 decodes every field the
    // older file versions have, and these kubelets decode strictly, so nothing changes meaning.
    const merged = new (yamlPackage().Document)({ apiVersion: 'kubelet.config.k8s.io/v1', kind: 'CredentialProviderConfig', providers: [] });
    const providers = merged.get('providers', true) as YAMLSeq;
    for (const source of documents) {
      for (const item of source.providers.items) {
        if (!input.drop.has(providerName(item))) providers.items.push(item);
      }
    }
    merged.commentBefore = ` Written by node-check fallback: the files of ${commentSafe(input.configPath)} merged, without ${dropped}.`;
    return { content: merged.toString(OUTPUT_OPTIONS) };
  } catch (error) {
    return { problem: `cannot write a filtered copy of ${input.configPath}: ${(error as Error).message.split('\n')[0]}` };
  }
}

function providerName(item: unknown): string {
  if (!yamlPackage().isMap(item)) return '';
  const name = item.get('name');
  return name === undefined || name === null ? '' : String(name);
}

function joinComments(ours: string, theirs: string | null | undefined): string {
  return theirs ? `${ours}\n${theirs}` : ours;
}

/** The files kubelet reads for the config path: the file, or a 1.34+ directory's *.json/*.yaml/*.yml in byte order. */
function configFiles(input: FilterInput): { files: string[] } | { problem: string } {
  const fact = factFor(input.files, input.configPath);
  if (!fact.exists) return { problem: `${input.configPath} does not exist` };
  if (fact.type !== 'directory') return { files: [input.configPath] };
  if (!input.traits.configMayBeDirectory || !fact.entries || 'error' in fact.entries) return { problem: `${input.configPath} is a directory that was not listed` };
  const files = fact.entries
    .filter((e) => !e.isDirectory && ['.json', '.yaml', '.yml'].includes(goExt(e.name)))
    .map((e) => posix.join(input.configPath, e.name))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return files.length > 0 ? { files } : { problem: `${input.configPath} holds no configuration files` };
}

/** Go's filepath.Ext (".yaml" of ".yaml" too, unlike path.extname). */
function goExt(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot);
}
