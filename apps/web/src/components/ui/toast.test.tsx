import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, TOAST_LIMIT, type ToastApi, ToastProvider, useToast } from './toast';

const ref: { toast?: ToastApi } = {};
function Grab() {
  ref.toast = useToast();
  return null;
}

/** Renders the provider and hands out its API, as a page's component gets it. */
function renderToasts(): { toast: ToastApi } {
  render(
    <ToastProvider>
      <Grab />
    </ToastProvider>,
  );
  return { toast: ref.toast as ToastApi };
}

const region = () => screen.getByRole('region', { name: 'Notifications' });
const texts = () =>
  within(region())
    .queryAllByTestId('toast')
    .map((t) => t.textContent);

afterEach(() => {
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows a toast in a live region that is there before it', () => {
    const { toast } = renderToasts();
    expect(region()).toHaveAttribute('aria-live', 'polite');
    expect(texts()).toEqual([]);
    act(() => void toast.show('Saved.'));
    expect(within(region()).getByRole('status')).toHaveTextContent('Saved.');
  });

  it('stacks the newest on top and keeps at most three', () => {
    const { toast } = renderToasts();
    act(() => {
      for (const n of [1, 2, 3, 4]) toast.show(`Toast ${n}`);
    });
    expect(TOAST_LIMIT).toBe(3);
    expect(texts()).toEqual(['Toast 4', 'Toast 3', 'Toast 2']);
  });

  it('closes a toast with its close button, and only that one', async () => {
    const { toast } = renderToasts();
    act(() => {
      toast.show('First');
      toast.show('Second');
    });
    const second = screen.getAllByTestId('toast')[0];
    await userEvent.click(within(second).getByRole('button', { name: 'Close' }));
    expect(texts()).toEqual(['First']);
  });

  it('goes by itself after five seconds, each on its own clock; 0 keeps it', () => {
    vi.useFakeTimers();
    const { toast } = renderToasts();
    act(() => void toast.show('Early'));
    act(() => void vi.advanceTimersByTime(2000));
    act(() => {
      toast.show('Late');
      toast.show({ message: 'Sticky', duration: 0 });
    });
    act(() => void vi.advanceTimersByTime(TOAST_DURATION_MS - 2000 - 1));
    expect(texts()).toEqual(['Sticky', 'Late', 'Early']);
    act(() => void vi.advanceTimersByTime(1));
    expect(texts()).toEqual(['Sticky', 'Late']);
    act(() => void vi.advanceTimersByTime(2000));
    expect(texts()).toEqual(['Sticky']);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(texts()).toEqual(['Sticky']);
  });

  it('stays while the pointer is on it, and goes its full time after', () => {
    vi.useFakeTimers();
    const { toast } = renderToasts();
    act(() => void toast.show('Read me'));
    const item = screen.getByTestId('toast');
    act(() => {
      item.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    });
    act(() => void vi.advanceTimersByTime(TOAST_DURATION_MS * 2));
    expect(texts()).toEqual(['Read me']);
    act(() => {
      item.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
    });
    act(() => void vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(texts()).toEqual([]);
  });

  it('announces an error at once (an alert), with its own test id', () => {
    const { toast } = renderToasts();
    act(() => void toast.show({ message: 'Could not save', variant: 'danger', testId: 'save-failed' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
    expect(screen.getByTestId('save-failed')).toHaveClass('toast-danger');
  });

  it('dismiss(id) closes the toast show() returned', () => {
    const { toast } = renderToasts();
    let id = 0;
    act(() => {
      id = toast.show('One');
      toast.show('Two');
    });
    act(() => toast.dismiss(id));
    expect(texts()).toEqual(['Two']);
  });
});
