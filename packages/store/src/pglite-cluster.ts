import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * Opens the embedded database in `dir`, creating its cluster when the directory holds none.
 *
 * PGlite creates a cluster by running initdb under WASM, which takes 3–8 s of CPU on a 2-core machine, every time.
 * A cluster fresh from initdb is the same whatever directory it is for (data directories hold no absolute paths),
 * so a new one starts instead as a copy of a cluster this machine user initialised once for this PGlite version,
 * kept in the temp directory (about 40 MB). Copying and opening it takes about 1.5 s. Only a directory created by
 * this user, not a link, and writable by no one else is taken as that cluster: a file planted by another user of
 * the machine never becomes a database's system catalogue. Should the copy fail, initdb runs in `dir` as PGlite
 * would have run it.
 */
export async function openPglite(dir: string, options: PGliteOptions, templateRoot: string = tmpdir()): Promise<PGlite> {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length === 0) {
    try {
      cpSync(await initialisedCluster(templateRoot), dir, { recursive: true });
    } catch {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
  }
  return PGlite.create(dir, options);
}

/** The once-initialised cluster of this user and PGlite version under `root`, created on first use. */
export async function initialisedCluster(root: string): Promise<string> {
  const uid = process.getuid?.() ?? 0;
  const template = path.join(root, `tongate-pglite-${pgliteVersion()}-${uid}`);
  if (existsSync(template)) {
    if (!trustedCluster(template, uid)) throw new Error(`${template} is not a cluster this user initialised`);
    return template;
  }
  // Initialised under a private name (mkdtemp makes it 0700) and renamed into place once whole: a process that
  // finds the template never copies a half-written one, and of two processes creating it at once one rename wins.
  const building = mkdtempSync(`${template}.`);
  try {
    const pglite = await PGlite.create(building);
    await pglite.close();
    renameSync(building, template);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(template)) throw err;
  }
  if (!trustedCluster(template, uid)) throw new Error(`${template} is not a cluster this user initialised`);
  return template;
}

function trustedCluster(dir: string, uid: number): boolean {
  const stat = lstatSync(dir);
  return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o022) === 0 && existsSync(path.join(dir, 'PG_VERSION'));
}

let version: string | undefined;

/** The installed PGlite's version: a cluster from one version's initdb is not handed to another. */
function pgliteVersion(): string {
  if (version === undefined) {
    const require = createRequire(import.meta.url);
    // The package exports no ./package.json: its manifest is found up from its entry point instead.
    for (let at = path.dirname(require.resolve('@electric-sql/pglite')); at !== path.dirname(at); at = path.dirname(at)) {
      const manifest = path.join(at, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, version: found } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (name === '@electric-sql/pglite' && found) return (version = found);
    }
    throw new Error('the installed @electric-sql/pglite has no readable version');
  }
  return version;
}
