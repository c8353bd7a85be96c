import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { LoginPage } from '@/features/auth/pages/login-page';
import { answer } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { ModerationNotices } from './moderation-notices';

describe('what moderation tells the member', () => {
  it('shows a warning with its reason until the member closes it, and the server is told', async () => {
    const sent: unknown[] = [];
    let notices = {
      warning: { id: 4, reason: 'Be kind to others', created_at: '2026-11-28T10:00:00.000Z' },
      handled_reports: [{ reference: 'C-AAAA2222', handled_at: '2026-11-28T11:00:00.000Z' }],
    };
    server.use(
      answer('GET /api/moderation.php', () => notices),
      answer('POST /api/moderation.php', async ({ request }) => {
        const body = (await request.json()) as { warning_id?: number; reports?: true };
        sent.push(body);
        notices = {
          warning: body.warning_id ? null : notices.warning,
          handled_reports: body.reports ? [] : notices.handled_reports,
        } as typeof notices;
        return { ok: true as const };
      }),
    );
    const { user } = await renderInRoute(<ModerationNotices />, { path: '/members', routeName: 'members', user: userFixture() });
    const warning = await screen.findByTestId('moderation-warning');
    expect(warning).toHaveTextContent(text('moderationNotices.warning', { reason: 'Be kind to others' }));
    const reports = screen.getByTestId('moderation-reports-handled');
    expect(reports).toHaveTextContent(text('moderationNotices.reportHandled', { reference: 'C-AAAA2222' }));
    // Never what happened to the other member.
    expect(reports.textContent).not.toMatch(/ban|suspend|warn/i);

    await user.click(screen.getAllByRole('button', { name: text('common.close') })[0]);
    await waitFor(() => expect(screen.queryByTestId('moderation-warning')).toBeNull());
    await user.click(screen.getByRole('button', { name: text('common.close') }));
    await waitFor(() => expect(screen.queryByTestId('moderation-reports-handled')).toBeNull());
    expect(sent).toEqual([{ warning_id: 4 }, { reports: true }]);
  });
});

describe('a refused login', () => {
  it('takes a banned member to the ban page', async () => {
    server.use(
      http.post('*/api/user.php', () =>
        HttpResponse.json({ error: 'banned', message: 'banned', message_key: 'auth.errors.banned' }, { status: 403 }),
      ),
    );
    const { user, router } = await renderInRoute(<LoginPage />, { path: '/login', routeName: 'login', user: null });
    await user.type(await screen.findByLabelText(text('login.email')), 'bo@example.com');
    await user.type(screen.getByLabelText(text('login.password')), 'secret words');
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/ban'));
  });

  it('tells a suspended member until when', async () => {
    server.use(
      http.post('*/api/user.php', () =>
        HttpResponse.json(
          { error: 'suspended', message: 'suspended', message_key: 'auth.errors.suspended', until: '2026-12-05T10:00:00.000Z' },
          { status: 403 },
        ),
      ),
    );
    const { user } = await renderInRoute(<LoginPage />, { path: '/login', routeName: 'login', user: null });
    await user.type(await screen.findByLabelText(text('login.email')), 'bo@example.com');
    await user.type(screen.getByLabelText(text('login.password')), 'secret words');
    await user.click(screen.getByTestId('login-submit'));
    const error = await screen.findByTestId('login-error');
    expect(error).toHaveTextContent('2026');
    expect(error.textContent).not.toContain('{until}');
  });
});
