import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** One chunk of Vite's build manifest (`build.manifest: true`, dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** Manifest keys of `keys` and of everything they import statically (what the browser must fetch before they run). */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const walk = (k: string) => {
    if (seen.has(k)) return;
    const chunk = manifest[k];
    if (!chunk) throw new Error(`not in the manifest: ${k}`);
    seen.add(k);
    for (const i of chunk.imports ?? []) walk(i);
  };
  keys.forEach(walk);
  return seen;
}

/**
 * The JS a first visit to a route downloads before the page can render: the entry
 * (index.html's script) and the lazy page module of the route, each with its static imports.
 * plus the reader's language bundle (when the build has per-language bundles). Dynamic imports
 * (other pages, the map, the Arabic date locale) are not counted.
 */
export function initialJs(manifest: Manifest, pageSrc: string, lang: 'en' | 'ar' = 'en'): string[] {
  return [...staticClosure(manifest, ['index.html', pageSrc, ...(LANGUAGE_BUNDLE[lang] in manifest ? [LANGUAGE_BUNDLE[lang]] : [])])]
    .map((k) => manifest[k].file)
    .filter((f) => f.endsWith('.js'));
}

/** The reader's strings, fetched before the first render (apps/web/src/i18n): part of every route's initial JS. */
export const LANGUAGE_BUNDLE = { en: 'src/i18n/bundles/en.ts', ar: 'src/i18n/bundles/ar.ts' } as const;

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

/**
 * Sizes of one file, kept per path, length and modification time: routes share most of their
 * chunks, and brotli at quality 11 takes seconds per route on a busy 2-core machine.
 */
const measured = new Map<string, Sizes>();
function fileSizes(path: string): Sizes {
  const { size, mtimeMs } = statSync(path);
  const key = `${path}\u0000${size}\u0000${mtimeMs}`;
  let s = measured.get(key);
  if (!s) {
    const buf = readFileSync(path);
    s = {
      raw: buf.length,
      gzip: gzipSync(buf, { level: 9 }).length,
      brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
    measured.set(key, s);
  }
  return s;
}

/** Bytes of `files` under `dist`: raw, gzip (level 9) and brotli (quality 11), as the build precompresses them. */
export function sizeOf(dist: string, files: string[]): Sizes {
  const total: Sizes = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const s = fileSizes(join(dist, f));
    total.raw += s.raw;
    total.gzip += s.gzip;
    total.brotli += s.brotli;
  }
  return total;
}

export const hasBuild = (dist: string) => existsSync(join(dist, '.vite/manifest.json'));
