import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FormField } from './form-field';

/** Two fields without ids; typing in the first clears its error, as a form does once the value is fixed. */
function TwoFields() {
  const [error, setError] = useState<string | null>('Required');
  return (
    <>
      <FormField label="First" error={error}>
        <input className="form-control" onChange={() => setError(null)} />
      </FormField>
      <FormField label="Second">
        <input className="form-control" />
      </FormField>
    </>
  );
}

describe('FormField', () => {
  it('labels its control; without an error the control is valid and described by its help only', () => {
    render(
      <FormField label="Email" help="We never show it">
        <input type="email" className="form-control" />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAccessibleDescription('We never show it');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveClass('form-control');
    expect(input).not.toHaveClass('is-invalid');
    expect(input).not.toHaveAttribute('aria-required');
    expect(screen.queryByTestId('required-marker')).toBeNull();
  });

  it('shows the error, marks the control invalid and describes it by the help and the error', () => {
    render(
      <FormField label="Password" help="At least 8 characters" error="Too short">
        <input id="pw" type="text" className="form-control" aria-describedby="hint" />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Password' });
    expect(input).toHaveAttribute('id', 'pw');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveClass('form-control', 'is-invalid');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toEqual(['hint', 'pw-help', 'pw-error']);
    expect(input).toHaveAccessibleDescription('At least 8 characters Too short');
    expect(screen.getByText('Too short')).toBeVisible();
  });

  it('marks a required field for sighted members and for assistive technology', () => {
    render(
      <FormField label="Subject" isRequired>
        <textarea className="form-control" />
      </FormField>,
    );
    const textarea = screen.getByRole('textbox', { name: 'Subject' });
    expect(textarea).toHaveAttribute('aria-required', 'true');
    expect(screen.getByTestId('required-marker')).toHaveAttribute('aria-hidden', 'true');
  });

  it('puts a checkbox before its label in the check layout', () => {
    render(
      <FormField label="I accept" layout="check" error="Please accept">
        <input type="checkbox" className="form-check-input" />
      </FormField>,
    );
    const box = screen.getByRole('checkbox', { name: 'I accept' });
    expect(box).toHaveClass('form-check-input', 'is-invalid');
    expect(box).toHaveAccessibleDescription('Please accept');
    expect(box.parentElement).toHaveClass('form-check');
  });

  it('shows a checkbox as an on/off switch in the switch layout', () => {
    render(
      <FormField label="Show me in search" layout="switch">
        <input type="checkbox" className="form-check-input" />
      </FormField>,
    );
    const toggle = screen.getByRole('switch', { name: 'Show me in search' });
    expect(toggle.parentElement).toHaveClass('form-check', 'form-switch');
  });

  it('gives two fields without ids different ids, and clears the error state once the error goes', async () => {
    render(<TwoFields />);
    const first = screen.getByRole('textbox', { name: 'First' });
    const second = screen.getByRole('textbox', { name: 'Second' });
    expect(first.id).not.toBe(second.id);
    expect(first).toHaveAttribute('aria-invalid', 'true');
    await userEvent.type(first, 'x');
    expect(first).not.toHaveAttribute('aria-invalid');
    expect(first).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByText('Required')).toBeNull();
  });
});
