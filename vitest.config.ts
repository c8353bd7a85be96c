import { defineConfig } from 'vitest/config';

const usePostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'pglite',
          include: ['apps/**/src/**/*.test.ts', 'apps/web/vite-plugins/*.test.ts', 'packages/**/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          env: { AMORA_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
