#!/usr/bin/env node
// Fails when a file of the repository refers to a path outside it: a sibling folder reached with `../` from the
// repository's root (`../shared`, `../../x` from a package's own top level and beyond), or an absolute path of a
// build machine (/work, /home, /root, /Users, /mnt, /srv, /opt, C:\). A clone with nothing beside it must pass the
// tests, so every file a test, bench or tool reads lives in the repository (recorded data: packages/testdata).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files that may name outside paths: the notice of where the recorded data came from, this check and its test, and
 * the lint config, whose `../../` import patterns are globs over import specifiers (relative to the importing file).
 */
const EXEMPT = new Set([
  'packages/testdata/NOTICE.md',
  'tools/check-self-contained.mjs',
  'tools/test/self-contained.test.ts',
  'eslint.config.mjs',
]);
/** Data and lock files: not read for paths (recorded chain data is base64 and hex). */
const SKIP = /(^|\/)(package-lock\.json)$|\.(boc|bin|b64|lz4|png|jpg|ico|woff2?)$|^packages\/testdata\/(fixtures|reference)\//;

const ABSOLUTE = /(^|[\s"'`(=:,[])(\/(?:work|home|root|Users|mnt|srv|opt)\/[\w.-]+|[A-Za-z]:\\\\?[\w.-]+\\)/;
const SHARED = /(^|[^\w.-])(?:\.\.\/)+shared\b/;

/** `../` steps from the file's folder that end above the repository's root (in a string or import). */
function escapesRoot(file, text) {
  const depth = file.split('/').length - 1;
  const found = [];
  for (const m of text.matchAll(/(?:^|[\s"'`(])((?:\.\.\/){2,})/g)) if (m[1].length / 3 > depth) found.push(m[1]);
  return found;
}

/** Every place in `files` ({path, text}) that refers outside the repository, as `path:line: reason`. */
export function findOutsidePaths(files) {
  const out = [];
  for (const { path: file, text } of files) {
    if (EXEMPT.has(file) || SKIP.test(file)) continue;
    text.split('\n').forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      if (SHARED.test(line)) out.push(`${where}: names ../shared, outside the repository`);
      const abs = ABSOLUTE.exec(line);
      if (abs) out.push(`${where}: names the machine path ${abs[2]}`);
      for (const up of escapesRoot(file, line)) out.push(`${where}: ${up} climbs above the repository's root`);
    });
  }
  return out;
}

function repositoryFiles(root) {
  const names = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })
    .toString()
    .split('\0')
    .filter(Boolean);
  return names.flatMap((name) => {
    let text;
    try {
      text = readFileSync(path.join(root, name), 'utf8');
    } catch {
      return []; // deleted in the working tree
    }
    return text.includes('\0') ? [] : [{ path: name, text }];
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const found = findOutsidePaths(repositoryFiles(root));
  if (found.length > 0) {
    console.error(`The repository must stand alone; these refer to paths outside it:\n${found.join('\n')}`);
    process.exit(1);
  }
  console.log('self-contained: no file refers to a path outside the repository');
}
