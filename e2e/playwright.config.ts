import { defineConfig, devices } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';

const PORT = Number(process.env.E2E_PORT ?? 4173);
export const BASE_URL = `http://localhost:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
// The SMTP sink's ports (tests/mail.ts reads the same variable): a second run beside the first sets all three.
const SMTP_PORT = process.env.SMTP_SINK_PORT ?? '2525';
const SMTP_HTTP_PORT = process.env.SMTP_SINK_HTTP_PORT ?? '4174';

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: './tests',
  outputDir: '../.tmp/e2e-results',
  // The look's baselines (tests/look.spec.ts), committed: one picture per screen and project.
  snapshotPathTemplate: '{testDir}/../screenshots/{arg}-{projectName}{ext}',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // Limits for a loaded two-core machine (a single-page test took 31 s, one step over 7 s, at load average 26);
  // journeys through several pages set JOURNEY_TIMEOUT (tests/fixtures.ts). Every wait is on a condition, so
  // these only bound a test that is stuck.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '../.tmp/e2e-report.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: chromium,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium } },
  ],
  webServer: [
    {
      command: 'node e2e/smtp-sink.mjs',
      cwd: '..',
      url: `http://127.0.0.1:${SMTP_HTTP_PORT}/messages`,
      env: { SMTP_SINK_PORT: SMTP_PORT, SMTP_SINK_HTTP_PORT: SMTP_HTTP_PORT },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      // The built server, as `npm start` runs it (the test command builds it first). It serves a copy of the
      // built web app, so a build made while the journeys run cannot take the pages' files away from them.
      command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && cp -r apps/web/dist ${DATA_DIR}/web && node ${SERVER_NODE_FLAGS.join(' ')} apps/server/dist/main.mjs`,
      cwd: '..',
      url: `${BASE_URL}/api/health.php`,
      reuseExistingServer: false,
      // A fresh data folder is migrated and seeded with 300 drawn demo members first, which took 130 s on a
      // two-core machine at load average 20. It is a wait for the address to answer, so a quick start costs nothing.
      timeout: 300_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        HOST: 'localhost',
        DATA_DIR,
        WEB_DIST: `${DATA_DIR}/web`,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        // Every journey signs up, and every browser calls the API, from this one address; the flood guard and
        // the signup limit have their own route tests.
        SIGNUP_RATE_LIMIT: '1000',
        API_RATE_LIMIT: '100000',
      },
    },
  ],
});
