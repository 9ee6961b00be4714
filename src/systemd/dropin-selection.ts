/**
 * Which "*.conf" drop-ins apply and in what order (src/basic/conf-files.c `conf_files_list_strv`,
 * v239 and v252): directories are scanned in priority order, the first file of a given name wins
 * and hides files of that name in later directories (that is how /etc masks /usr/lib), hidden
 * files are skipped, and the winners are applied sorted by file name (byte order), whatever their
 * directory. Masking (a winner that is empty or a link to /dev/null) is decided by the caller.
 */

export interface DirectoryListing {
  readonly dir: string;
  readonly names: readonly string[];
}

export interface DropInCandidate {
  readonly name: string;
  readonly path: string;
}

export function pickDropIns(listings: readonly DirectoryListing[], suffix = '.conf'): DropInCandidate[] {
  const winners = new Map<string, DropInCandidate>();
  for (const listing of listings) {
    for (const name of listing.names) {
      if (!name.endsWith(suffix) || name.startsWith('.') || winners.has(name)) continue;
      winners.set(name, { name, path: `${listing.dir}/${name}` });
    }
  }
  return [...winners.values()].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
}
