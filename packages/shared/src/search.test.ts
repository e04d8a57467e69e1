import { describe, expect, it } from 'vitest';
import { matchesSearch, normalizeSearch, withoutArticle } from './search.ts';

describe('normalizeSearch (issue 23)', () => {
  it('folds the Arabic letters people type interchangeably', () => {
    expect(normalizeSearch('أإآٱا')).toBe('ااااا');
    expect(normalizeSearch('جدة')).toBe(normalizeSearch('جده'));
    expect(normalizeSearch('مستشفى')).toBe('مستشفي');
    expect(normalizeSearch('مؤسسة')).toBe('موسسه');
    expect(normalizeSearch('حائل')).toBe('حايل');
    expect(normalizeSearch('جـــدة')).toBe('جده');
    expect(normalizeSearch('مَكَّة')).toBe('مكه');
  });

  it('reads Latin case, apostrophes and punctuation loosely', () => {
    expect(normalizeSearch('  Al-Ahsa ')).toBe('al ahsa');
    expect(normalizeSearch("Na'mi")).toBe('nami');
    expect(normalizeSearch('Ash Shamlul (Umm Aqla)')).toBe('ash shamlul umm aqla');
  });

  it('drops a leading article only when a name is left', () => {
    expect(withoutArticle('الاحساء')).toBe('احساء');
    expect(withoutArticle('al ahsa')).toBe('ahsa');
    expect(withoutArticle('ال')).toBe('ال');
    expect(withoutArticle('alma')).toBe('alma');
  });

  it('matchesSearch: a district typed without its article or with ه for ة', () => {
    expect(matchesSearch('حي الروضة', 'الروضه')).toBe(true);
    expect(matchesSearch('حي الروضة', 'روضه')).toBe(true);
    expect(matchesSearch('Ar Rawdah Dist.', 'rawdah')).toBe(true);
    expect(matchesSearch('حي النسيم', 'الروضه')).toBe(false);
    expect(matchesSearch('حي النسيم', '')).toBe(true);
  });
});
