import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const usePostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    // A file per core (Vitest's default leaves one core out: a single worker on two cores). The server's tests wait
    // on the database much of their time, so the run on two cores took 1,070 s instead of 1,900 s.
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'pglite',
          include: ['apps/server/src/**/*.test.ts', 'apps/web/vite-plugins/*.test.ts', 'packages/**/src/**/*.test.ts', 'scripts/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          env: { AMORA_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web app's components and hooks in a DOM (happy-dom), with the React transform and the @/ alias
        // of apps/web/vite.config.ts, and the API answered by MSW from the contracts' schemas (src/testing).
        plugins: [react()],
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/testing/setup.ts'],
          testTimeout: 15_000,
        },
      },
      ...(usePostgres
        ? [
            {
              test: {
                name: 'postgres',
                include: ['apps/server/src/**/*.test.ts'],
                environment: 'node',
                globalSetup: ['apps/server/src/test/global-setup.ts'],
                env: { AMORA_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
