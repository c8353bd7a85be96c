/**
 * The database schema, one file per area; drizzle-kit reads this file (packages/db/drizzle.config.ts) and
 * `@amora/db` re-exports it. A new table goes into its area's file and is exported here.
 */
export * from './accounts';
export * from './chat';
export * from './mailings';
export * from './notifications';
export * from './operations';
export * from './payments';
export * from './profiles';
export * from './sandbox';
export * from './sites';
export * from './staff';
