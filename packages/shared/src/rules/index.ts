export * from './plate.ts';
export * from './identifiers.ts';
export * from './fleet.ts';
export * from './nationalities.ts';
export * from './lifecycle.ts';
export * from './hijri.ts';
export * from './subscription-lifecycle.ts';
