#!/usr/bin/env node
// npm run build: the web app (Vite) and then the server (scripts/build-server.mjs).
// --quiet (what `npm start` runs): one line, then errors only, so the start output stays the
// addresses and the demo login.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (quiet) console.log('Building the web app and the server…');
// The browser's build, then the server's render of it (dist/ssr); quiet, each of the two is told so.
for (const script of ['build:client', 'build:ssr']) {
  run('npm', ['run', script, '--silent', '-w', '@amora/web', '--', ...(quiet ? ['--logLevel', 'error'] : [])]);
}
run(process.execPath, [resolve(root, 'scripts/build-server.mjs'), ...(quiet ? ['--quiet'] : [])]);
