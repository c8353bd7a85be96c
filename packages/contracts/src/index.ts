export * from './complaints';
export * from './constants';
export * from './content';
export * from './errors';
export * from './locales';
export * from './routes';
export * from './settings';
