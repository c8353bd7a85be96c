import { userResponseSchema } from '@amora/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { profileCardKey } from '@/shared/profiles/card-cache';
import { setSessionUser, userQueryKey } from '@/shared/session/user';
import { contractJson } from '@/testing/contract';
import { likesFixture, userFixture } from '@/testing/fixtures';
import { renderAppHook } from '@/testing/render';
import { server } from '@/testing/server';
import { useLogin } from './account';

/** What one member was shown, in the query cache: their likes, a search page, a card kept from it. */
function showSomething(queryClient: QueryClient) {
  queryClient.setQueryData(['likes'], likesFixture());
  queryClient.setQueryData(['search', {}], { pages: [], pageParams: [] });
  queryClient.setQueryData(profileCardKey(42), { id: 42, name: 'Seen by the one before' });
}

const loginAnswers = (user: ReturnType<typeof userFixture>) =>
  http.post('*/api/user.php', () => contractJson(userResponseSchema, { user }));

describe('changing members in one tab', () => {
  it('drops what the member before was shown when another one logs in after their session ended', async () => {
    const { result, queryClient } = await renderAppHook(() => useLogin(), { user: userFixture({ id: 1 }) });
    showSomething(queryClient);
    // The session ended on the server (expired, or ended elsewhere): the tab now sees a visitor …
    act(() => setSessionUser(queryClient, null));
    expect(queryClient.getQueryData(['likes'])).toBeUndefined();
    // … and whatever a visitor was shown goes too when a member logs in.
    showSomething(queryClient);
    server.use(loginAnswers(userFixture({ id: 2, email: 'kim@example.com' })));
    await act(() => result.current.mutateAsync({ email: 'kim@example.com', password: 'secret-password' }));

    expect(queryClient.getQueryData<{ id: number }>(userQueryKey)?.id).toBe(2);
    expect(queryClient.getQueryData(['likes'])).toBeUndefined();
    expect(queryClient.getQueryData(['search', {}])).toBeUndefined();
    expect(queryClient.getQueryData(profileCardKey(42))).toBeUndefined();
    expect(queryClient.getQueryCache().findAll({ queryKey: ['settings'] })).not.toHaveLength(0);
  });

  it('drops them when a login answers another member than the one the tab still shows', async () => {
    const { result, queryClient } = await renderAppHook(() => useLogin(), { user: userFixture({ id: 1 }) });
    showSomething(queryClient);
    server.use(loginAnswers(userFixture({ id: 2, email: 'kim@example.com' })));
    await act(() => result.current.mutateAsync({ email: 'kim@example.com', password: 'secret-password' }));
    expect(queryClient.getQueryData(['likes'])).toBeUndefined();
    expect(queryClient.getQueryData(profileCardKey(42))).toBeUndefined();
  });

  it('keeps them when the same member logs in again', async () => {
    const { result, queryClient } = await renderAppHook(() => useLogin(), { user: userFixture({ id: 1 }) });
    showSomething(queryClient);
    server.use(loginAnswers(userFixture({ id: 1 })));
    await act(() => result.current.mutateAsync({ email: 'robin@example.com', password: 'secret-password' }));
    expect(queryClient.getQueryData(['likes'])).toEqual(likesFixture());
    expect(queryClient.getQueryData(profileCardKey(42))).toBeDefined();
  });
});
