export * from './client';
export * from './conditions';
export * as schema from './schema';
export * from './schema';
export * from './seed';
export * from './seed-payments';
