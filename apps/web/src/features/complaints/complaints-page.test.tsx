import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { recordCalls } from '@/testing/server';
import { text } from '@/testing/text';

describe('complaints form', () => {
  it('ties each error to its field, marks the field invalid and sends nothing', async () => {
    const calls = recordCalls();
    const { user } = await renderApp('/complaints');
    const name = await screen.findByRole('textbox', { name: text('complaints.name') });
    const url = screen.getByRole('textbox', { name: text('complaints.url') });
    expect(name).toHaveAttribute('aria-required', 'true');
    expect(url).not.toHaveAttribute('aria-required');
    expect(url).toHaveAccessibleDescription(text('complaints.urlHelp'));

    await user.type(url, `https://amora.example/${'a'.repeat(500)}`);
    await user.click(screen.getByTestId('complaint-submit'));

    expect(await screen.findByText(text('complaints.errors.name'))).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(text('complaints.errors.name'));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(`${text('complaints.urlHelp')} ${text('complaints.errors.url')}`);
    const subject = screen.getByRole('textbox', { name: text('complaints.subject') });
    expect(subject).toHaveAccessibleDescription(text('complaints.errors.subject'));
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
  });
});
