import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { isDialogOpen, pressEscape } from '@/testing/dialog';
import { type Confirm, ConfirmProvider, useConfirm } from './confirm';

const ref: { confirm?: Confirm } = {};
function Grab() {
  ref.confirm = useConfirm();
  return null;
}

function renderConfirm(): { confirm: Confirm } {
  render(
    <ConfirmProvider>
      <Grab />
    </ConfirmProvider>,
  );
  return { confirm: ref.confirm as Confirm };
}

async function ask(confirm: Confirm, options: Parameters<Confirm>[0]) {
  let answer!: Promise<boolean>;
  await act(async () => {
    answer = confirm(options);
  });
  return answer;
}

describe('confirm', () => {
  it('asks in a dialog named by its title and resolves true on the confirming button', async () => {
    const { confirm } = renderConfirm();
    const answer = ask(confirm, {
      title: 'Block Anna?',
      message: 'She can no longer write to you.',
      confirmLabel: 'Block',
      isDanger: true,
    });
    const dialog = await screen.findByRole('dialog', { name: 'Block Anna?' });
    expect(dialog).toHaveTextContent('She can no longer write to you.');
    expect(screen.getByRole('button', { name: 'Block' })).toHaveClass('btn-danger');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    await expect(await answer).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resolves false on Cancel, which has the focus first', async () => {
    const { confirm } = renderConfirm();
    const answer = ask(confirm, { title: 'Leave?' });
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    expect(cancel).toHaveFocus();
    expect(screen.getByRole('button', { name: 'OK' })).toHaveClass('btn-primary');
    await userEvent.click(cancel);
    expect(await answer).toBe(false);
  });

  it('resolves false on Escape and closes', async () => {
    const { confirm } = renderConfirm();
    const answer = ask(confirm, { title: 'Delete photo?' });
    const dialog = await screen.findByRole('dialog', { name: 'Delete photo?' });
    expect(isDialogOpen(dialog)).toBe(true);
    await pressEscape();
    expect(await answer).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a second question answers the first one false', async () => {
    const { confirm } = renderConfirm();
    const first = ask(confirm, { title: 'First?' });
    await screen.findByRole('dialog', { name: 'First?' });
    const second = ask(confirm, { title: 'Second?' });
    expect(await first).toBe(false);
    await userEvent.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await second).toBe(true);
  });
});
