import type { AuditEntry, Staff } from '@amora/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18next } from '@/lib/i18n';
import { answer } from '@/testing/contract';
import { server } from '@/testing/server';
import { createConsoleQueryClient } from './console-query-client';
import { consoleRoutes } from './console-routes';
import { CONSOLE_SECTIONS } from './sections';

const c = (key: string, values?: Record<string, unknown>) => i18next.t(key, { ns: 'console', ...values }) as string;

const staffFixture = (overrides: Partial<Staff> = {}): Staff => ({
  id: 1,
  email: 'ada@amora.example',
  name: 'Ada Admin',
  role: 'admin',
  language: 'en',
  is_active: true,
  last_login_at: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

function renderConsole(path: string, me: Staff | null) {
  server.use(answer('GET /api/console/me', () => ({ staff: me })));
  const router = createMemoryRouter(consoleRoutes(), { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={createConsoleQueryClient({ retry: false })}>
      <Suspense fallback={null}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>,
  );
  return { ...view, router, user: userEvent.setup() };
}

const failWith = (method: 'post' | 'put', path: string, status: number, error: string, key?: string) =>
  http[method](`*${path}`, () => HttpResponse.json({ error, message: error, ...(key ? { message_key: key } : {}) }, { status }));

beforeAll(async () => {
  await i18next.loadNamespaces('console');
});
afterEach(async () => {
  if (i18next.language !== 'en') await i18next.changeLanguage('en');
});

describe('signing in to the console', () => {
  it('sets up the authenticator on the first sign-in, shows the recovery codes once, then enters', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
    const sent: unknown[] = [];
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    server.use(
      answer('POST /api/console/login', async ({ request }) => {
        sent.push(await request.json());
        return { step: 'enroll' as const, enroll: { secret, otpauth_url: `otpauth://totp/Amora:ada?secret=${secret}&issuer=Amora` } };
      }),
      answer('POST /api/console/login/second-factor', async ({ request }) => {
        const body = (await request.json()) as { code: string };
        sent.push(body);
        if (body.code === '111111') return undefined;
        return { step: 'done' as const, recovery_codes: codes, staff: staffFixture() };
      }),
      failWith('post', '/api/console/login/second-factor', 401, 'code_wrong', 'console.errors.codeWrong'),
    );
    const { user } = renderConsole('/console', null);
    expect(await screen.findByRole('heading', { name: c('signIn.title') })).toBeVisible();
    await user.type(screen.getByLabelText(c('signIn.email')), 'ada@amora.example');
    await user.type(screen.getByLabelText(c('signIn.password')), 'secret words');
    await user.click(screen.getByRole('button', { name: c('signIn.submit') }));

    expect(await screen.findByRole('heading', { name: c('signIn.enrollTitle') })).toBeVisible();
    expect(screen.getByTestId('enroll-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    const qr = await screen.findByRole('img', { name: c('signIn.qrLabel') });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // Setting up has no recovery codes yet to fall back on.
    expect(screen.queryByTestId('toggle-recovery')).toBeNull();

    await user.type(screen.getByLabelText(c('signIn.code')), '111111');
    await user.click(screen.getByRole('button', { name: c('signIn.confirm') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(c('errors.codeWrong'));

    await user.clear(screen.getByLabelText(c('signIn.code')));
    await user.type(screen.getByLabelText(c('signIn.code')), '123456');
    await user.click(screen.getByRole('button', { name: c('signIn.confirm') }));
    const shown = await screen.findByTestId('recovery-codes');
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(screen.queryByTestId('console-top')).toBeNull();

    await user.click(screen.getByRole('button', { name: c('signIn.recoverySaved') }));
    expect(await screen.findByTestId('console-who')).toHaveTextContent('Ada Admin');
    expect(screen.getByTestId('console-role')).toHaveTextContent(c('roles.admin'));
    expect(screen.queryByTestId('recovery-codes')).toBeNull();
    expect(sent).toEqual([{ email: 'ada@amora.example', password: 'secret words' }, { code: '111111' }, { code: '123456' }]);
  });

  it('takes a recovery code instead of the app’s code, and names a wrong password', async () => {
    const sent: unknown[] = [];
    let attempts = 0;
    server.use(
      answer('POST /api/console/login', () => (++attempts === 1 ? undefined : { step: 'second_factor' as const })),
      failWith('post', '/api/console/login', 401, 'login_failed', 'console.errors.loginFailed'),
      answer('POST /api/console/login/second-factor', async ({ request }) => {
        sent.push(await request.json());
        return { step: 'done' as const, staff: staffFixture({ role: 'support', name: 'Sam Support' }) };
      }),
    );
    const { user } = renderConsole('/console/sessions', null);
    await user.type(await screen.findByLabelText(c('signIn.email')), 'sam@amora.example');
    await user.type(screen.getByLabelText(c('signIn.password')), 'wrong');
    await user.click(screen.getByRole('button', { name: c('signIn.submit') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(c('errors.loginFailed'));
    await user.click(screen.getByRole('button', { name: c('signIn.submit') }));

    expect(await screen.findByRole('heading', { name: c('signIn.codeTitle') })).toBeVisible();
    await user.click(screen.getByRole('button', { name: c('signIn.useRecovery') }));
    await user.type(screen.getByLabelText(c('signIn.recoveryCode')), ' ABCDE-12345 ');
    server.use(answer('GET /api/console/sessions', () => ({ sessions: [] })));
    await user.click(screen.getByRole('button', { name: c('signIn.confirm') }));
    expect(await screen.findByRole('heading', { level: 1, name: c('sessions.title') })).toBeVisible();
    expect(sent).toEqual([{ recovery_code: 'abcde-12345' }]);
  });
});

describe('the console’s sections by role', () => {
  it('shows an admin every section, in the nav and as cards on the overview', async () => {
    renderConsole('/console', staffFixture());
    const nav = await screen.findByTestId('console-nav');
    for (const key of ['nav.staff', 'nav.audit', 'nav.moderation', 'nav.support', 'nav.sessions', 'nav.inbox', 'nav.fictional']) {
      expect(within(nav).getByRole('link', { name: c(key) })).toBeVisible();
    }
    expect(within(screen.getByTestId('console-sections')).getAllByRole('link')).toHaveLength(CONSOLE_SECTIONS.length);
  });

  it('shows a moderator neither staff nor the audit log, and refuses the staff page', async () => {
    renderConsole('/console/staff', staffFixture({ role: 'moderator', name: 'Mo Moderator' }));
    expect(await screen.findByTestId('console-forbidden')).toHaveTextContent(c('errors.forbidden'));
    const nav = screen.getByTestId('console-nav');
    expect(within(nav).queryByRole('link', { name: c('nav.staff') })).toBeNull();
    expect(within(nav).queryByRole('link', { name: c('nav.audit') })).toBeNull();
    expect(within(nav).getByRole('link', { name: c('nav.sessions') })).toBeVisible();
  });

  it('speaks the staff member’s language, with English a click away, and signs out', async () => {
    server.use(answer('POST /api/console/logout', () => ({ ok: true as const })));
    const { user } = renderConsole('/console', staffFixture({ language: 'de' }));
    await waitFor(() => expect(i18next.language).toBe('de'));
    const german = i18next.getFixedT('de', 'console');
    expect(await screen.findByRole('link', { name: german('nav.audit') })).toBeVisible();
    await user.click(screen.getByTestId('console-language'));
    expect(await screen.findByRole('link', { name: c('nav.audit', { lng: 'en' }) })).toBeVisible();
    await user.click(screen.getByTestId('console-sign-out'));
    expect(await screen.findByTestId('password-form')).toBeVisible();
    window.sessionStorage.clear();
  });
});

describe('staff', () => {
  it('adds a staff member and shows their password once', async () => {
    const list = [staffFixture()];
    const sent: unknown[] = [];
    server.use(
      answer('GET /api/console/staff', () => ({ staff: list })),
      answer('POST /api/console/staff', async ({ request }) => {
        const body = (await request.json()) as { email: string; name: string; role: Staff['role']; language: string };
        sent.push(body);
        const created = staffFixture({ ...body, id: 2, last_login_at: null });
        list.push(created);
        return { staff: created, password: 'plum-orbit-5512-kettle' };
      }),
    );
    const { user } = renderConsole('/console/staff', staffFixture());
    const form = await screen.findByTestId('staff-add');
    await user.type(within(form).getByLabelText(c('staff.name')), 'Sam Support');
    await user.type(within(form).getByLabelText(c('staff.email')), 'sam@amora.example');
    await user.selectOptions(within(form).getByLabelText(c('staff.language')), 'nl');
    await user.click(within(form).getByRole('button', { name: c('staff.addSubmit') }));

    expect(await screen.findByTestId('staff-password-value')).toHaveTextContent('plum-orbit-5512-kettle');
    expect(sent).toEqual([{ name: 'Sam Support', email: 'sam@amora.example', role: 'support', language: 'nl' }]);
    expect(await screen.findByTestId('staff-2')).toHaveTextContent('Sam Support');
    await user.click(screen.getByRole('button', { name: c('staff.passwordDone') }));
    expect(screen.queryByText('plum-orbit-5512-kettle')).toBeNull();
    expect(screen.getByTestId('staff-add')).toBeVisible();
  });

  it('changes a role in place and says why the last admin stays one', async () => {
    const sent: unknown[] = [];
    server.use(
      answer('GET /api/console/staff', () => ({ staff: [staffFixture(), staffFixture({ id: 3, name: 'Mo', role: 'moderator' })] })),
      answer('PUT /api/console/staff/:id', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push([request.url.split('/').pop(), body]);
        if (request.url.endsWith('/1')) return undefined;
        return staffFixture({ id: 3, name: 'Mo', role: 'support' });
      }),
      failWith('put', '/api/console/staff/1', 409, 'last_admin', 'console.errors.lastAdmin'),
    );
    const { user } = renderConsole('/console/staff', staffFixture());
    const mo = await screen.findByTestId('staff-3');
    await user.selectOptions(within(mo).getByRole('combobox', { name: `${c('staff.role')}: Mo` }), 'support');
    await waitFor(() =>
      expect(within(screen.getByTestId('staff-3')).getByRole('combobox', { name: `${c('staff.role')}: Mo` })).toHaveValue('support'),
    );
    await user.selectOptions(
      within(screen.getByTestId('staff-1')).getByRole('combobox', { name: `${c('staff.role')}: Ada Admin` }),
      'moderator',
    );
    expect(await within(screen.getByTestId('staff-1')).findByRole('alert')).toHaveTextContent(c('errors.lastAdmin'));
    expect(sent).toEqual([
      ['3', { role: 'support' }],
      ['1', { role: 'moderator' }],
    ]);
  });
});

describe('the audit log', () => {
  const entry = (id: number): AuditEntry => ({
    id,
    staff: { id: 1, name: 'Ada Admin', email: 'ada@amora.example' },
    action: 'staff.create',
    object_type: 'staff',
    object_id: String(id),
    before: null,
    after: { role: 'support' },
    ip: '127.0.0.1',
    created_at: '2026-11-20T10:00:00.000Z',
  });

  it('pages through the log and filters it by object and staff member', async () => {
    const asked: string[] = [];
    server.use(
      answer('GET /api/console/staff', () => ({ staff: [staffFixture()] })),
      answer('GET /api/console/audit', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        const page = Number(url.searchParams.get('page') ?? 1);
        return { entries: [entry(page * 10)], page, pages: 3, total: 55 };
      }),
    );
    const { user } = renderConsole('/console/audit', staffFixture());
    expect(await screen.findByTestId('audit-10')).toHaveTextContent('staff.create');
    expect(screen.getByTestId('audit-page')).toHaveTextContent(c('audit.page', { page: 1, pages: 3 }));
    expect(screen.getByRole('button', { name: c('audit.previous') })).toBeDisabled();
    expect(screen.getByText(c('audit.total', { count: 55 }))).toBeVisible();

    await user.click(screen.getByRole('button', { name: c('audit.next') }));
    expect(await screen.findByTestId('audit-20')).toBeVisible();
    expect(screen.getByTestId('audit-page')).toHaveTextContent(c('audit.page', { page: 2, pages: 3 }));

    const filters = screen.getByRole('search', { name: c('audit.filters') });
    await user.type(within(filters).getByLabelText(c('audit.objectType')), 'staff');
    await user.type(within(filters).getByLabelText(c('audit.objectId')), '7');
    await user.selectOptions(within(filters).getByLabelText(c('audit.staff')), 'Ada Admin');
    await user.click(within(filters).getByRole('button', { name: c('audit.filter') }));
    await waitFor(() => expect(asked.at(-1)).toBe('?page=1&object_type=staff&object_id=7&staff_id=1'));
    expect(asked.slice(0, 2)).toEqual(['?page=1', '?page=2']);
  });
});

describe('my sessions', () => {
  it('lists them and ends another one', async () => {
    const sessions = [
      {
        id: 'aaaaaaaaaaaaaaaa',
        current: true,
        ip: '10.0.0.1',
        user_agent: 'Firefox',
        created_at: '2026-11-20T10:00:00.000Z',
        last_seen_at: '2026-11-20T11:00:00.000Z',
      },
      {
        id: 'bbbbbbbbbbbbbbbb',
        current: false,
        ip: '10.0.0.2',
        user_agent: 'Safari',
        created_at: '2026-11-19T10:00:00.000Z',
        last_seen_at: '2026-11-19T11:00:00.000Z',
      },
    ];
    let list = sessions;
    server.use(
      answer('GET /api/console/sessions', () => ({ sessions: list })),
      answer('DELETE /api/console/sessions/:id', ({ request }) => {
        list = list.filter((one) => !request.url.endsWith(one.id));
        return { ok: true as const };
      }),
    );
    const { user } = renderConsole('/console/sessions', staffFixture({ role: 'support' }));
    expect(await screen.findByTestId('session-aaaaaaaaaaaaaaaa')).toHaveTextContent(c('sessions.current'));
    await user.click(screen.getByRole('button', { name: c('sessions.endLabel', { device: 'Safari' }) }));
    await waitFor(() => expect(screen.queryByTestId('session-bbbbbbbbbbbbbbbb')).toBeNull());
  });
});
