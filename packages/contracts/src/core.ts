/** Values without zod, for code that must stay small (the web app's first load). */
export * from './constants';
export * from './locales';
export * from './routes';
