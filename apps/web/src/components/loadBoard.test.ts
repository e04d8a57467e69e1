import { describe, expect, it } from 'vitest';
import { rolePaths } from './useViewer';
import { laneOf } from './Lane';

describe('role paths (spec §2 routes)', () => {
  it('shippers search shipments, carriers and brokers search loads', () => {
    expect(rolePaths('/shippers').search).toBe('/shippers/search-shipments');
    expect(rolePaths('/carriers').search).toBe('/carriers/load-search');
    expect(rolePaths('/brokers').search).toBe('/brokers/load-search');
  });
  it('carriers have my-shipments and cannot post loads', () => {
    expect(rolePaths('/carriers').myLoads).toBe('/carriers/my-shipments');
    expect(rolePaths('/carriers').canPost).toBe(false);
    expect(rolePaths('/brokers').myLoads).toBe('/brokers/my-loads');
    expect(rolePaths('/brokers').canPost).toBe(true);
    expect(rolePaths('/shippers').load('x')).toBe('/shippers/loads/x');
  });
});

describe('lane of a load', () => {
  it('is the first pickup and the last drop', () => {
    const s = (en: string, ar: string) => ({ cityNameEn: en, cityNameAr: ar });
    expect(laneOf({ stops: [s('Riyadh', 'الرياض'), s('Al Kharj', 'الخرج'), s('Jeddah', 'جدة')] } as never)).toEqual({
      fromEn: 'Riyadh',
      fromAr: 'الرياض',
      toEn: 'Jeddah',
      toAr: 'جدة',
    });
  });
});
