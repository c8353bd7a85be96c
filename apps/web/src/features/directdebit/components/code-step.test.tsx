import { directDebitPostResponseSchema } from '@amora/contracts';
import { act, screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ToastProvider } from '@/components/ui/toast';
import { contractJson } from '@/testing/contract';
import { userFixture } from '@/testing/fixtures';
import { renderInRoute } from '@/testing/render';
import { server } from '@/testing/server';
import { text } from '@/testing/text';
import { CodeStep } from './code-step';

const p = (key: string, values: Record<string, unknown> = {}) => text(key, { ns: 'payments', ...values });

const VERIFICATION = { verification: 41, phone_masked: '+31 6••••••78', expires_at: '2026-11-25T10:10:00.000Z', resend_after_seconds: 60 };

function renderStep(verification = VERIFICATION) {
  return renderInRoute(
    <ToastProvider>
      <CodeStep verification={verification} onConfirmed={() => {}} onChangeDetails={() => {}} onBlocked={() => {}} />
    </ToastProvider>,
    { path: '/directdebit', routeName: 'directdebit', user: userFixture() },
  );
}

describe('the SMS code step', () => {
  it('counts down to a new code, sends it for the same verification and says so', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/api/directdebit.php', async ({ request }) => {
        sent.push(await request.json());
        return contractJson(directDebitPostResponseSchema, { ...VERIFICATION, expires_at: '2026-11-25T10:12:00.000Z' });
      }),
    );
    // The countdown's clock is the test's (its interval and Date; requests and renders run for real): each second
    // is shown, however busy the machine.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { user } = await renderStep({ ...VERIFICATION, resend_after_seconds: 2 });
    const resend = await screen.findByTestId('directdebit-resend');
    expect(resend).toBeDisabled();
    expect(resend).toHaveTextContent(p('directDebit.code.resendIn', { seconds: 2 }));
    act(() => vi.advanceTimersByTime(1_000));
    expect(resend).toHaveTextContent(p('directDebit.code.resendIn', { seconds: 1 }));
    act(() => vi.advanceTimersByTime(1_000));
    expect(resend).toBeEnabled();
    expect(resend).toHaveTextContent(p('directDebit.code.resend'));
    await user.click(resend);
    expect(await screen.findByText(p('directDebit.code.resent'))).toBeVisible();
    expect(sent).toEqual([{ step: 'resend', verification: 41 }]);
    // The wait starts again for the new code (60 s).
    expect(screen.getByTestId('directdebit-resend')).toBeDisabled();
    expect(screen.getByTestId('directdebit-resend')).toHaveTextContent(p('directDebit.code.resendIn', { seconds: 60 }));
  });

  it('refuses a code that is not six digits without asking the server', async () => {
    const { user } = await renderStep();
    const field = await screen.findByRole('textbox', { name: p('directDebit.code.label') });
    await user.type(field, '12ab3');
    expect(field).toHaveValue('123');
    await user.click(screen.getByTestId('directdebit-confirm'));
    expect(await screen.findByTestId('directdebit-code-error')).toHaveTextContent('Invalid code');
    expect(field).toHaveAccessibleDescription('Invalid code');
  });
});
