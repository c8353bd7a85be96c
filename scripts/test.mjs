#!/usr/bin/env node
// Runs every test: the type check and the lint, unit and route tests (Vitest, on PGlite, and on PostgreSQL + Redis
// when TEST_DATABASE_URL / TEST_REDIS_URL are set), then the e2e journeys in Chromium (Playwright).
// Ends with one line "N passed, N failed" summed over both runners.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status ?? 1;
mkdirSync('.tmp', { recursive: true });

const EMOJI_FONT = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';

/** Debian's chromium, and the colour emoji font the screenshot baselines were drawn with, installed when missing. */
function ensureChromium() {
  const packages = [];
  if (!process.env.CHROMIUM_PATH && !existsSync('/usr/bin/chromium')) packages.push('chromium');
  if (!existsSync(EMOJI_FONT)) packages.push('fonts-noto-color-emoji');
  if (packages.length === 0) return true;
  console.log(`Installing Debian's ${packages.join(' and ')}…`);
  if (process.getuid?.() !== 0) {
    console.error(`Run as root, or install it yourself: apt-get install ${packages.join(' ')}`);
    return !packages.includes('chromium');
  }
  run('apt-get', ['update', '-qq']);
  const status = run('apt-get', ['install', '-y', '-qq', ...packages], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return status === 0 || existsSync('/usr/bin/chromium') || Boolean(process.env.CHROMIUM_PATH);
}

/** Runs `step`, noting how long it took under `label`; its result. */
function timed(label, step) {
  const startedAt = Date.now();
  const result = step();
  timings.push(`  ${label}: ${seconds(Date.now() - startedAt)}`);
  return result;
}

let passed = 0;
let failed = 0;
let crashed = false;
/** The names of the tests that failed, repeated above the last line so that a log's tail tells which. */
const failures = [];

/** Where the run's time went, printed above the last line: each runner's seconds, the slowest files and journeys. */
const timings = [];
/** The journeys that failed first and passed on their retry: they pass, and are named so that they get looked at. */
const flaky = [];
/** Each e2e journey's time over its tries, to name the slowest. */
const journeyTimes = [];
const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/** Playwright's report nests suites; the failed tests are those whose status was not the expected one. */
function e2eFailures(suites, path = []) {
  for (const suite of suites ?? []) {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = `[${test.projectName}] ${[...here, spec.title].join(' › ')}`;
        if (test.status === 'unexpected') failures.push(name);
        if (test.status === 'flaky') flaky.push(name);
        journeyTimes.push([name, (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0)]);
      }
    }
    e2eFailures(suite.suites, here);
  }
}

/** The `count` largest of [name, ms] pairs, a line each. */
const slowest = (pairs, count) =>
  [...pairs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `    ${seconds(ms).padStart(6)}  ${name}`);

// The checks the code must pass before its tests mean anything: the types (tsc) and the lint (Biome, the module
// boundaries, knip). Each counts as one test.
if (!only) {
  for (const script of ['typecheck', 'lint']) {
    if (timed(script, () => run('npm', ['run', script, '--silent'])) === 0) {
      passed += 1;
    } else {
      failed += 1;
      failures.push(`${script}: see its output above`);
    }
  }
}

if (only !== 'e2e') {
  rmSync('.tmp/vitest.json', { force: true });
  const startedAt = Date.now();
  const status = run('vitest', ['run', '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json']);
  if (existsSync('.tmp/vitest.json')) {
    const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
    const files = (report.testResults ?? []).map((file) => [
      file.name.replace(`${process.cwd()}/`, ''),
      (file.endTime ?? 0) - (file.startTime ?? 0),
    ]);
    timings.push(`  unit and integration (vitest): ${seconds(Date.now() - startedAt)}; its slowest files:`, ...slowest(files, 5));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    for (const file of report.testResults ?? []) {
      const names = (file.assertionResults ?? []).filter((t) => t.status === 'failed').map((t) => t.fullName);
      if (names.length === 0 && file.status === 'failed') names.push('(the file did not run)');
      for (const name of names) failures.push(`${file.name.replace(`${process.cwd()}/`, '')} › ${name}`);
    }
    if (status !== 0 && report.numFailedTests === 0) {
      failed += Math.max(1, report.numFailedTestSuites ?? 0);
      failures.push('vitest: no test failed, but the run did (an unhandled error or rejection: see "Unhandled Errors" above)');
    }
  } else {
    crashed = true;
    failed += 1;
  }
}

if (only !== 'unit') {
  if (!ensureChromium()) {
    failed += 1;
    crashed = true;
  } else if (timed('build', () => run('npm', ['run', 'build', '--silent'])) !== 0) {
    console.error('The build failed, so the e2e journeys cannot run.');
    failed += 1;
    crashed = true;
  } else {
    rmSync('.tmp/e2e-report.json', { force: true });
    const startedAt = Date.now();
    const status = run('playwright', ['test', '--config', 'e2e/playwright.config.ts']);
    if (existsSync('.tmp/e2e-report.json')) {
      const { stats, suites } = JSON.parse(readFileSync('.tmp/e2e-report.json', 'utf8'));
      e2eFailures(suites);
      timings.push(
        `  e2e (Playwright): ${seconds(Date.now() - startedAt)}; its slowest journeys (all tries):`,
        ...slowest(journeyTimes, 5),
      );
      passed += stats.expected + stats.flaky;
      failed += stats.unexpected;
      if (status !== 0 && stats.unexpected === 0) {
        failed += 1;
        failures.push('Playwright: no journey failed, but the run did (see its output above)');
      }
    } else {
      crashed = true;
      failed += 1;
    }
  }
}

if (timings.length > 0) console.log(`\nTime:\n${timings.join('\n')}`);
if (flaky.length > 0) console.log(`\nPassed on a retry (flaky):\n${flaky.map((f) => `  ~ ${f}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}\n`);
if (crashed) console.error('A test runner did not finish; see the output above.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
