import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeModuleSources, routeModulesOf } from './route-modules';

const WEB = join(import.meta.dirname, '..');

describe('the route → page module map of the build', () => {
  it('reads each named route of the route table with the module its lazy function imports', async () => {
    const map = await routeModuleSources(WEB);
    expect(map).toMatchObject({
      members: 'src/features/members/members-page.tsx',
      'members-id': 'src/app/pages/member-page.tsx',
      'swipe-game': 'src/features/swipe-game/swipe-game-page.tsx',
      settings: 'src/app/pages/settings-page.tsx',
      // Through a function of the file (loginPage) and a call of one (authPage('…')).
      login: 'src/features/auth/pages/login-page.tsx',
      'reset-password': 'src/features/auth/pages/reset-password-pages.tsx',
      chats: 'src/features/chat/pages/chats-page.tsx',
    });
  });

  it('takes a handle written as an object, and leaves routes without a lazy module out', () => {
    const source = `
      const page = () => import('./a');
      export const routes = [
        { path: 'a', lazy: page, handle: { name: 'a' } },
        { path: 'b', lazy: () => import('./b').then((m) => ({ Component: m.B })), handle: handle('b', data) },
        { index: true, element: <Index />, handle: handle('index') },
      ];`;
    expect(routeModulesOf(source)).toEqual({ a: './a', b: './b' });
  });
});
