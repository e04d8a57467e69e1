import { describe, expect, it } from 'vitest';
import { DEFAULT_RADIUS, filtersToParams, filtersToQuery, filtersToSearch, PAGE_SIZE, parseFilters, searchToFilters } from './searchParams';

const parse = (qs: string) => parseFilters(new URLSearchParams(qs));

describe('load search filters in the URL', () => {
  it('parses a shared link', () => {
    const f = parse(
      'pickupCityId=3&radius=100&dropCityId=18&dropRadius=50&equipmentType=reefer_truck&loadType=LTL&pickupFrom=2026-12-01&pickupTo=2026-12-07&sort=deadhead&page=3&view=map&density=compact&size=50',
    );
    expect(f).toEqual({
      pickupCityId: 3,
      radius: 100,
      dropCityId: 18,
      dropRadius: 50,
      equipmentType: 'reefer_truck',
      loadType: 'LTL',
      pickupFrom: '2026-12-01',
      pickupTo: '2026-12-07',
      sort: 'deadhead',
      bookNow: false,
      page: 3,
      after: null,
      view: 'map',
      density: 'compact',
      pageSize: 50,
    });
  });
  it('falls back to defaults for missing or invalid values (radius only from spec §9 options)', () => {
    const f = parse('pickupCityId=abc&radius=75&loadType=XL&sort=cheapest&page=-2&pickupFrom=01/12/2026&density=tiny&size=12');
    expect(f.pickupCityId).toBeNull();
    expect(f.radius).toBe(DEFAULT_RADIUS);
    expect(f.loadType).toBeNull();
    expect(f.sort).toBe('newest');
    expect(f.page).toBe(1);
    expect(f.pickupFrom).toBeNull();
    expect(f.view).toBe('list');
    expect(f.density).toBe('comfortable');
    // only the table's sizes (issue 23); 25 by default
    expect(f.pageSize).toBe(25);
    expect(PAGE_SIZE).toBe(25);
  });
  it('round-trips and leaves defaults out of the link', () => {
    const qs = 'pickupCityId=3&radius=500&dropCityId=18&dropRadius=200&loadType=FTL&sort=price&page=2';
    expect(filtersToParams(parse(qs)).toString()).toBe(qs);
    expect(filtersToParams(parse('')).toString()).toBe('');
    // A radius without a city means nothing: it is not written.
    expect(filtersToParams(parse('radius=50')).toString()).toBe('');
  });
  it('builds the GET /loads query: Riyadh day bounds, paging, radius only with a city', () => {
    const q = filtersToQuery(parse('pickupCityId=3&radius=50&pickupFrom=2026-12-01&pickupTo=2026-12-02&page=2'));
    expect(q).toMatchObject({
      pickupCityId: 3,
      radius: 50,
      pickupFrom: '2026-12-01T00:00:00+03:00',
      pickupTo: '2026-12-02T23:59:59+03:00',
      limit: PAGE_SIZE,
      skip: PAGE_SIZE,
    });
    expect(q.dropRadius).toBeUndefined();
    expect(filtersToQuery(parse('dropCityId=18')).radius).toBeUndefined();
  });
  it('pages by the chosen page size (25 / 50 / 100), in the link only when not the default', () => {
    expect(filtersToQuery(parse('size=100&page=3'))).toMatchObject({ limit: 100, skip: 200 });
    expect(filtersToQuery(parse('size=50&after=abc'))).toMatchObject({ limit: 50, cursor: 'abc' });
    expect(filtersToParams(parse('size=50&density=compact')).toString()).toBe('density=compact&size=50');
    expect(filtersToParams(parse('size=25&density=comfortable')).toString()).toBe('');
  });
  it('past the numbered pages, pages by the cursor (after) instead of skip', () => {
    const f = parse('sort=price&page=4&after=abc_123');
    expect(f.after).toBe('abc_123');
    const q = filtersToQuery(f);
    expect(q.cursor).toBe('abc_123');
    expect(q.skip).toBeUndefined();
    // the cursor replaces the page number in a shared link
    expect(filtersToParams(f).toString()).toBe('sort=price&after=abc_123');
  });
  it('does not ask for a deadhead sort without a pickup city', () => {
    expect(filtersToQuery(parse('sort=deadhead')).sort).toBe('newest');
    expect(filtersToQuery(parse('sort=deadhead&pickupCityId=3')).sort).toBe('deadhead');
  });
});

describe('saved and recent searches (issue 19)', () => {
  it('stores the page’s search as GET /loads’ query without paging, and runs it back to the same filters', () => {
    const f = parse(
      'pickupCityId=3&radius=150&dropCityId=18&dropRadius=50&equipmentType=reefer_truck&pickupFrom=2026-12-01&pickupTo=2026-12-07&sort=price&bookNow=1&page=4',
    );
    const s = filtersToSearch(f);
    expect(s).toEqual({
      pickupCityId: 3,
      radius: 150,
      dropCityId: 18,
      dropRadius: 50,
      equipmentType: 'reefer_truck',
      pickupFrom: '2026-12-01T00:00:00+03:00',
      pickupTo: '2026-12-07T23:59:59+03:00',
      sort: 'price',
      bookNow: 'true',
    });
    // the server keeps dates in UTC: still the same Riyadh days; the page starts at page 1
    const back = searchToFilters({ ...s, pickupFrom: '2026-11-30T21:00:00.000Z', pickupTo: '2026-12-07T20:59:59.000Z' });
    expect(back).toEqual({ ...f, page: 1 });
    expect(searchToFilters({ sort: 'newest' })).toEqual(parse(''));
  });
});
