// Third-party notices for a bundle: the licence of every npm package esbuild put into it.
// Bundling drops each dependency's LICENSE file, and most of them carry no `@license` comment
// that esbuild's legalComments could keep, so the notices are collected from the metafile.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDirs, readManifest } from './bundled-packages.mjs';

const LICENSE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt))?$/i;

/**
 * Writes `outfile`: name, version, licence and licence text of each package bundled per `metafile`.
 * @param {import('esbuild').Metafile} metafile
 * @param {string} outfile
 * @param {string} bundleName the bundle the notices are for, named in the header
 */
export function writeThirdPartyNotices(metafile, outfile, bundleName) {
  const sections = packageDirs(metafile).map(noticeOf).sort((a, b) => (a.title < b.title ? -1 : 1));
  const header = `${bundleName} bundles the following third-party packages. Their licences follow.\n`;
  writeFileSync(outfile, [header, ...sections.map((s) => `${'='.repeat(78)}\n${s.title}\n\n${s.text}`)].join('\n'));
}

function noticeOf(dir) {
  const pkg = readManifest(dir);
  const licence = typeof pkg.license === 'string' ? pkg.license : 'see below';
  const files = existsSync(dir) ? readdirSync(dir).filter((name) => LICENSE_FILE.test(name)).sort() : [];
  const text = files.map((name) => readFileSync(join(dir, name), 'utf8').trim()).join('\n\n');
  return { title: `${pkg.name}@${pkg.version} (${licence})`, text: `${text || `License: ${licence}`}\n` };
}
