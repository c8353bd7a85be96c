import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite-plugins/precompress';
import { routeModules } from './vite-plugins/route-modules';

export default defineConfig(({ isSsrBuild }) => ({
  // The server build (`vite build --ssr`, the visitor pages' first screen) is read by the server, never downloaded.
  // The browser's build also writes the route → page module map the server preloads pages by (route-modules.ts).
  plugins: isSsrBuild ? [react()] : [react(), routeModules(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  css: {
    preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] } },
  },
  build: {
    // Catalogues stay files: CSP allows fetch only from 'self', not data: URLs.
    assetsInlineLimit: (file: string) => (file.endsWith('.json') ? false : undefined),
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    // A dynamic import adds a `<link rel="modulepreload">` for each file the imported one needs, all in the task
    // that imports. The landers' start (lander-main.tsx) and the designs' loaders import a lander's code once the
    // first screen is painted: its dozen links cost a phone's main thread one long task then (about 100 ms at
    // Lighthouse's 4x slower CPU), where the browser's module loader fetches the same files as it reads the code,
    // in tasks of their own. Their imports therefore preload nothing; the app's do as before.
    modulePreload: {
      resolveDependencies: (_file: string, deps: string[], { hostId }: { hostId: string }) =>
        /^assets\/(lander|designs)-[\w-]{8}\.js$/.test(hostId) ? [] : deps,
    },
    // .vite/manifest.json: the server preloads a page's chunk and the text font with the HTML (plugins/page-preloads.ts).
    manifest: !isSsrBuild,
    // Two pages: the app (index.html) and the landers' own small page (lander.html: React, i18next and a lander).
    rollupOptions: isSsrBuild
      ? undefined
      : {
          input: {
            index: fileURLToPath(new URL('./index.html', import.meta.url)),
            lander: fileURLToPath(new URL('./lander.html', import.meta.url)),
          },
          // What both pages run (React and i18next) in one chunk, cached from one page to the other; the rest as
          // the bundler splits it.
          output: {
            codeSplitting: {
              // A group takes the modules it names, not what they import (shared modules stay where both pages reach them).
              includeDependenciesRecursively: false,
              groups: [
                // React DOM a file of its own: a lander's page evaluates it in a task of its own (app/lander/take-over.ts).
                { name: 'react-dom', test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 11 },
                { name: 'react', test: /[\\/]node_modules[\\/](react|i18next|react-i18next)[\\/]/, priority: 10 },
                { name: 'app-vendor', test: /[\\/]node_modules[\\/](react-router|@tanstack|cookie|set-cookie-parser)[\\/]/, priority: 5 },
                // The landers' page's own code in one file (what only the landers' page and a lander's route load).
                {
                  name: 'lander-page',
                  test: /[\\/]src[\\/](app[\\/]lander[\\/]lander-start|features[\\/]landers[\\/]lander-(app|chrome|site))\.tsx$/,
                  priority: 4,
                },
              ],
            },
          },
        },
    copyPublicDir: !isSsrBuild,
  },
  // The server build carries its libraries: the server loads one file, whatever node_modules holds.
  ssr: { noExternal: true },
  // ws: the chat's live channel (/api/live) is a WebSocket; its upgrade is forwarded too. /sandbox: the payment
  // sandbox's test checkout, which opens on the site's own address (here the dev server's).
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', ws: true }, '/sandbox': { target: 'http://localhost:3000' } },
  },
}));
