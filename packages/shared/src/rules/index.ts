export * from './plate.ts';
export * from './identifiers.ts';
export * from './fleet.ts';
export * from './nationalities.ts';
export * from './lifecycle.ts';
export * from './hijri.ts';
export * from './call-lifecycle.ts';
export * from './bayan-lifecycle.ts';
