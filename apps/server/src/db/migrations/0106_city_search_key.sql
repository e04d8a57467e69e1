-- City search that reads Arabic and English as people type them (issue 23).
-- `aliases`: English (and other) alternates of a city's name, '|'-separated, loaded from
-- src/db/reference/city-aliases.json by the reference seed (see SOURCE.md there).
-- `search_key`: '|name_en|name_ar|alias…|' folded the way packages/shared/src/search.ts
-- normalizeSearch folds the typed text: lower case; أ إ آ ٱ → ا, ؤ → و, ئ → ي, ى → ي, ة → ه;
-- tatweel, short vowels, dagger alef and apostrophes dropped; other punctuation and space runs
-- → one space. Stored (generated), so the search is one LIKE on an indexed column.
alter table cities add column aliases text not null default '';

alter table cities add column search_key text generated always as (
  '|' || btrim(regexp_replace(translate(lower(name_en), 'أإآٱؤئىةـًٌٍَُِّْٰ''’`', 'ااااوييه'), '[-_.,()/&|[:space:]]+', ' ', 'g'))
  || '|' || btrim(regexp_replace(translate(lower(name_ar), 'أإآٱؤئىةـًٌٍَُِّْٰ''’`', 'ااااوييه'), '[-_.,()/&|[:space:]]+', ' ', 'g'))
  || '|' || regexp_replace(translate(lower(aliases), 'أإآٱؤئىةـًٌٍَُِّْٰ''’`', 'ااااوييه'), '[-_.,()/&[:space:]]+', ' ', 'g')
  || '|'
) stored;

-- Every search pattern is LIKE '%…%' on search_key (substring, word start after '|', whole term
-- between '|'): a trigram GIN index serves all of them, in PostgreSQL and in PGlite (pg_trgm).
create index cities_search_key_trgm on cities using gin (search_key gin_trgm_ops);
