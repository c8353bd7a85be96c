import { DATA_EXPORT_LATEST_PATH } from '@amora/contracts/core';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { answer } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';

const READY = { status: 'ready' as const, requested_at: '2026-11-29T10:00:00.000Z', expires_at: '2026-12-06T10:00:00.000Z' };

async function card() {
  const rendered = await renderApp('/settings', { user: userFixture() });
  const section = await screen.findByTestId('settings-data-export');
  expect(within(section).getByRole('heading', { name: text('dataExport.title') })).toBeVisible();
  return { ...rendered, section };
}

describe('the settings page: download your data', () => {
  it('asks for a copy of my data, then says it is being prepared and mailed', async () => {
    let asked = 0;
    server.use(
      answer('POST /api/data-export.php', () => {
        asked++;
        return { status: 'pending' as const, requested_at: '2026-11-29T10:00:00.000Z', expires_at: null };
      }),
    );
    const { user, section } = await card();
    expect(await within(section).findByText(text('dataExport.validity', { count: 7 }))).toBeVisible();
    await user.click(within(section).getByRole('button', { name: text('dataExport.request') }));
    expect(await within(section).findByText(text('dataExport.pending'))).toBeVisible();
    expect(within(section).queryByRole('button', { name: text('dataExport.request') })).toBeNull();
    expect(asked).toBe(1);
  });

  it('shows a pending copy without a button', async () => {
    server.use(answer('GET /api/data-export.php', () => ({ ...READY, status: 'pending' as const, expires_at: null })));
    const { section } = await card();
    expect(await within(section).findByTestId('data-export-pending')).toHaveTextContent(text('dataExport.pending'));
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('links to a ready copy until its date', async () => {
    server.use(answer('GET /api/data-export.php', () => READY));
    const { section } = await card();
    const link = await within(section).findByRole('link', { name: text('dataExport.download') });
    expect(link).toHaveAttribute('href', DATA_EXPORT_LATEST_PATH);
    expect(within(section).getByTestId('data-export-ready')).toHaveTextContent(/6 December 2026/);
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('offers a new copy once the link has expired', async () => {
    server.use(answer('GET /api/data-export.php', () => ({ ...READY, status: 'expired' as const })));
    const { section } = await card();
    expect(await within(section).findByText(text('dataExport.expired'))).toBeVisible();
    expect(within(section).getByRole('button', { name: text('dataExport.request') })).toBeVisible();
  });

  it("says why a request was refused, in the server's words", async () => {
    server.use(
      http.post('*/api/data-export.php', () =>
        HttpResponse.json(
          { error: 'rate_limited', message: 'x', message_key: 'dataExport.errors.tooSoon', retry_after_seconds: 3600 },
          { status: 429 },
        ),
      ),
    );
    const { user, section } = await card();
    await user.click(await within(section).findByRole('button', { name: text('dataExport.request') }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(text('dataExport.errors.tooSoon'));
  });
});
