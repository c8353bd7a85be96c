#!/usr/bin/env node
// npm run dev: the server from its TypeScript sources, restarted on change (port 3000), and Vite's dev server
// with hot reload (port 5173, forwarding /api to the server, WebSockets included). Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  // Links in mails lead to the site's domain on Vite's port (http://amora.localhost:5173/…), which forwards /api.
  spawn(process.execPath, ['--watch', '--enable-source-maps', '--import', 'tsx', 'apps/server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, LINK_PORT: process.env.LINK_PORT ?? '5173' },
  }),
  spawn(process.execPath, ['../../node_modules/vite/bin/vite.js'], { cwd: 'apps/web', stdio: 'inherit' }),
];
console.log('Web app with hot reload: http://localhost:5173/  (API on http://localhost:3000/)');

let stopping = false;
const stop = (code = 0) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
