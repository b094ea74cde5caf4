// Writing generated files and comparing / syncing a freshly generated tree with the committed one.
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFiles(dir, files) {
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
}

/** Relative paths (posix) of the files under `root` matched by the patterns: `dir/**` (recursive) or `dir/*.ext`. */
async function listManaged(root, patterns) {
  const found = new Set();
  for (const pattern of patterns) {
    const recursive = pattern.endsWith('/**');
    const dir = recursive ? pattern.slice(0, -3) : path.posix.dirname(pattern);
    const suffix = recursive ? '' : path.posix.basename(pattern).replace(/^\*/, '');
    let entries;
    try {
      entries = await readdir(path.join(root, dir), { recursive, withFileTypes: true });
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const rel = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (rel.split('/').includes('node_modules')) continue;
      if (rel.endsWith(suffix)) found.add(rel);
    }
  }
  return [...found].sort();
}

async function readOrUndefined(file) {
  try {
    return await readFile(file);
  } catch (err) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Differences between the fresh tree and the committed one: added (only fresh), removed (only committed), changed. */
export async function diffTrees(freshRoot, committedRoot, patterns) {
  const fresh = await listManaged(freshRoot, patterns);
  const committed = new Set(await listManaged(committedRoot, patterns));
  const differences = [];
  for (const file of fresh) {
    const before = committed.has(file) ? await readOrUndefined(path.join(committedRoot, file)) : undefined;
    committed.delete(file);
    if (before === undefined) differences.push({ kind: 'missing', file });
    else if (!before.equals(await readFile(path.join(freshRoot, file)))) differences.push({ kind: 'changed', file });
  }
  for (const file of committed) differences.push({ kind: 'stale', file });
  return differences.sort((a, b) => a.file.localeCompare(b.file));
}

/** Makes the committed tree equal to the fresh one (managed paths only); returns what changed. */
export async function syncTrees(freshRoot, committedRoot, patterns) {
  const differences = await diffTrees(freshRoot, committedRoot, patterns);
  for (const { kind, file } of differences) {
    const target = path.join(committedRoot, file);
    if (kind === 'stale') {
      await rm(target);
    } else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, await readFile(path.join(freshRoot, file)));
    }
  }
  return differences;
}
