import { describe, expect, it } from 'vitest';
import { EMPTY_TRUCK_FILTERS, parseTruckFilters, searchToTruckFilters, truckFiltersToParams, truckFiltersToSearch } from './searchParams';

describe('truck search filters in the URL and as saved searches (issue 19)', () => {
  it('round-trips the URL and a saved search', () => {
    const f = parseTruckFilters(
      new URLSearchParams('originCityId=3&radius=150&destinationCityId=18&equipmentType=reefer_truck&date=2026-12-01&minCapacityKg=5000&sort=rate'),
    );
    expect(f).toEqual({
      originCityId: 3,
      radius: 150,
      destinationCityId: 18,
      equipmentType: 'reefer_truck',
      date: '2026-12-01',
      minCapacityKg: 5000,
      sort: 'rate',
    });
    expect(parseTruckFilters(truckFiltersToParams(f))).toEqual(f);
    const s = truckFiltersToSearch(f);
    expect(s).toEqual({
      sort: 'rate',
      originCityId: 3,
      radius: 150,
      destinationCityId: 18,
      equipmentType: 'reefer_truck',
      date: '2026-12-01T00:00:00+03:00',
      minCapacityKg: 5000,
    });
    // as the server keeps it (UTC): the same Riyadh day
    expect(searchToTruckFilters({ ...s, date: '2026-11-30T21:00:00.000Z' })).toEqual(f);
  });

  it('falls back to the defaults', () => {
    expect(parseTruckFilters(new URLSearchParams('radius=7&sort=x&minCapacityKg=-1'))).toEqual(EMPTY_TRUCK_FILTERS);
    expect(truckFiltersToSearch(EMPTY_TRUCK_FILTERS)).toEqual({ sort: 'date' });
  });
});
