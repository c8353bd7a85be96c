import '@/styles/theme.scss';
import type { Locale, Settings } from '@amora/contracts/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ConfirmProvider } from '@/components/ui/confirm';
import { ToastProvider } from '@/components/ui/toast';
import { SignupModalProvider } from '@/features/auth/components/signup-modal';
import { type SignupOptions, useOpenSignup } from '@/shared/modals/open-signup';
import { userQueryKey } from '@/shared/session/user';
import { settingsQueryKey } from '@/shared/site/api/get-settings';

/**
 * The app's signup modal on a lander's page (desktop; a phone goes to the signup page): loaded at the first click
 * on a lander's call to sign up, with the app's styles, and rendered beside the lander in a root of its own, with
 * the query cache and a router of its own. Wherever it then goes (the next step after signing up, a link to the
 * terms) is a page of the app, loaded anew.
 */

let open: ((options?: SignupOptions) => void) | null = null;
let pending: SignupOptions | undefined;

/** Hands the modal's opener out once it is mounted, and opens what was asked for meanwhile. */
function Opener() {
  const openSignup = useOpenSignup();
  useEffect(() => {
    open = openSignup;
    openSignup(pending);
  }, [openSignup]);
  return null;
}

export function openSignup({ locale, settings, profileId }: { locale: Locale; settings: Settings; profileId?: number }): void {
  pending = profileId ? { profileId } : {};
  if (open) {
    open(pending);
    return;
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
  queryClient.setQueryData(settingsQueryKey(locale), settings);
  queryClient.setQueryData(userQueryKey, null);
  const here = window.location.pathname;
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <ToastProvider>
            <ConfirmProvider>
              <SignupModalProvider>
                <Opener />
              </SignupModalProvider>
            </ConfirmProvider>
          </ToastProvider>
        ),
      },
    ],
    { initialEntries: [here] },
  );
  router.subscribe((state) => {
    if (state.location.pathname !== here) window.location.assign(state.location.pathname + state.location.search);
  });
  const container = document.createElement('div');
  container.id = 'lander-signup';
  document.body.append(container);
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  );
}
