/**
 * Search text as people type it (issue 23): one folding for city and district names, used by the
 * server (the query side of the cities.search_key column, migration 0106, which applies the same
 * folding in SQL) and by the web pickers that filter in the browser (districts).
 *
 * - Arabic: alef forms أ إ آ ٱ → ا, taa marbuta ة → ه, alef maqsura ى → ي, hamza seats ؤ → و and
 *   ئ → ي; tatweel (ـ), the short-vowel marks (U+064B–U+0652) and the dagger alef (U+0670) dropped.
 * - Latin: lower case, apostrophes dropped (Na'mi = Nami), hyphens and other punctuation read as
 *   a space (Al-Ahsa = Al Ahsa), runs of spaces collapsed.
 *
 * Keep in step with the generated column in apps/server/src/db/migrations/0106_city_search_key.sql;
 * apps/server/test/city-search.test.ts checks both give the same text for every city.
 */
const FOLD: Record<string, string> = { أ: 'ا', إ: 'ا', آ: 'ا', ٱ: 'ا', ؤ: 'و', ئ: 'ي', ى: 'ي', ة: 'ه' };

/** Tatweel, short vowels (U+064B–U+0652), dagger alef, apostrophes. */
const DROP = new Set(['\u0640', ...Array.from({ length: 8 }, (_, i) => String.fromCharCode(0x064b + i)), '\u0670', "'", '’', '`']);

export function normalizeSearch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[أإآٱؤئىة]/g, (c) => FOLD[c] ?? c)
    .split('')
    .filter((c) => !DROP.has(c))
    .join('')
    .replace(/[\s\-_.,()/&|]+/g, ' ')
    .trim();
}

/** The term without a leading article ("ال…", "al …"), when something is left after it. */
export function withoutArticle(normalized: string): string {
  if (normalized.startsWith('ال') && normalized.length > 3) return normalized.slice(2);
  if (normalized.startsWith('al ') && normalized.length > 4) return normalized.slice(3);
  return normalized;
}

/** Does `name` match what the user typed (folded, either side without its article)? For filters in the browser. */
export function matchesSearch(name: string, typed: string): boolean {
  const q = withoutArticle(normalizeSearch(typed));
  return !q || normalizeSearch(name).includes(q);
}
