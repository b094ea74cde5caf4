import { createRequire } from 'node:module';

/**
 * The libraries whose private internals the devnet's fast paths use, with the version each fast path was written
 * against. A fast path runs only on exactly that version; on any other the devnet uses the library's public API.
 */
export const WRITTEN_FOR = {
  '@ton/sandbox': '0.41.0',
  '@ton/crypto': '3.3.0',
} as const;

export type SeamLibrary = keyof typeof WRITTEN_FOR;

export interface SeamOptions {
  /** Library versions to assume instead of the installed ones (tests force the public-API fallback with this). */
  installed?: Partial<Record<SeamLibrary, string>>;
}

const require = createRequire(import.meta.url);
/** Read once per process (a package's version does not change while it runs). */
const versions = new Map<string, string | undefined>();

/** The installed version of a library, read from its package.json; undefined when it cannot be read. */
export function installedVersion(library: string): string | undefined {
  if (!versions.has(library)) {
    let version: string | undefined;
    try {
      version = (require(`${library}/package.json`) as { version?: string }).version;
    } catch {
      version = undefined;
    }
    versions.set(library, version);
  }
  return versions.get(library);
}

/** Whether the fast path written for `library` may run: the (assumed) installed version is the one it was written for. */
export function fastPathApplies(library: SeamLibrary, opts: SeamOptions = {}): boolean {
  return (opts.installed?.[library] ?? installedVersion(library)) === WRITTEN_FOR[library];
}
