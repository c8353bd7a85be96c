import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { companyInfoFixture } from '@/testing/fixtures';
import { renderApp, renderAppHook } from '@/testing/render';
import { answers, recordCalls, server } from '@/testing/server';
import { useCompanyInfo } from './get-company-info';
import { useInterests } from './get-interests';
import { useRegions } from './get-regions';

const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;

/** Spec §7: interests.php, regions.php and companyinfo.php are each loaded once and cached. */
describe('the catalogue calls', () => {
  it('loads the regions of every country of the site in one call, for every part of the page that asks', async () => {
    const calls = recordCalls();
    const { result } = await renderAppHook(() => ({ nl: useRegions('NL'), be: useRegions('BE') }));
    await waitFor(() => expect(result.current.nl.data?.map((r) => r.code)).toEqual(['NL-NH', 'NL-UT']));
    expect(result.current.be.data).toEqual([{ code: 'BE-VAN', name: 'Antwerpen' }]);
    expect(count(calls, 'GET /api/regions.php')).toBe(1);
  });

  it('asks regions.php once however often the country changes', async () => {
    const calls = recordCalls();
    let country = 'NL';
    const { result, rerender } = await renderAppHook(() => useRegions(country));
    await waitFor(() => expect(result.current.data?.[0]?.code).toBe('NL-NH'));
    for (const next of ['BE', 'DE', 'NL', 'XX']) {
      country = next;
      rerender();
    }
    expect(result.current.data).toEqual([]);
    expect(count(calls, 'GET /api/regions.php')).toBe(1);
  });

  it('loads the interests once for every part of the page that shows them', async () => {
    server.use(answers.interests(['travel', 'music', 'cooking']));
    const calls = recordCalls();
    const { result, rerender } = await renderAppHook(() => [useInterests(), useInterests()]);
    await waitFor(() => expect(result.current[0].data).toEqual(['travel', 'music', 'cooking']));
    expect(result.current[1].data).toEqual(['travel', 'music', 'cooking']);
    rerender();
    expect(count(calls, 'GET /api/interests.php')).toBe(1);
  });

  it('shows the company of companyinfo.php in the footer and the terms, loaded once across pages', async () => {
    server.use(answers.companyInfo(companyInfoFixture({ name: 'Amora Holding B.V.', support_phone_dial: '+31209876543' })));
    const calls = recordCalls();
    const { router } = await renderApp('/pages/terms');
    const footer = await screen.findByTestId('footer');
    await waitFor(() => expect(within(footer).getByTestId('company-block')).toHaveTextContent('Amora Holding B.V.'));
    expect(within(footer).getByTestId('support-phone')).toHaveTextContent('+31209876543');
    expect(await screen.findByRole('main')).toHaveTextContent('Amora Holding B.V.');
    await act(() => router.navigate('/pages/privacy'));
    await act(() => router.navigate('/complaints'));
    expect(within(await screen.findByTestId('footer')).getByTestId('company-block')).toHaveTextContent('Amora Holding B.V.');
    expect(count(calls, 'GET /api/companyinfo.php')).toBe(1);
  });

  it('paints the company block from the settings until companyinfo.php answers', async () => {
    const { result } = await renderAppHook(() => useCompanyInfo());
    expect(result.current.name).toBe('Amora Media B.V.');
    expect(result.current.support_phone_dial).toBe('+31201234567');
  });
});
