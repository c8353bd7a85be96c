import { ENTRY_WARNING_STORAGE_KEY, isLanderSlug, LANDER_NAMES, type LanderName } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { readCookie } from '@/lib/cookies';
import { storage } from '@/lib/storage';
import { ErrorPage } from '@/shared/errors/error-page';
import { useOpenSignup } from '@/shared/modals/open-signup';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { landerQuery } from './api/get-lander';
import { LANDER_DESIGNS } from './designs';
import { LanderApp } from './lander-app';
import { type LanderProps, landerNameOf } from './lander-types';

/** Each lander's design as a lazy component, made once. */
const LAZY_DESIGNS = {} as Record<LanderName, ComponentType<LanderProps>>;
for (const name of LANDER_NAMES) LAZY_DESIGNS[name] = lazy(() => LANDER_DESIGNS[name]().then((Design) => ({ default: Design })));

/**
 * A lander (/landers/{name}/{slug?}, /landers/tinderswipe) when the app itself shows one: the server serves lander
 * addresses with the landers' own small page (app/lander), so this is the app's way there (a link inside the app)
 * and what its tests render. An unknown name or slug is the 404 page.
 */
export function LanderPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const name = landerNameOf(params);
  const settings = useSettings();
  const locale = useLocale();
  const user = useUser();
  const openSignup = useOpenSignup();
  const { t } = useTranslation('landers');
  // `/landers/tinderswipe` has no slug; the others take one that exists.
  const isValid =
    params.name === undefined || (name !== null && name !== 'tinderswipe' && (params.slug === undefined || isLanderSlug(params.slug)));
  const lander = useQuery({ ...landerQuery(name ?? 'tinderswipe', params.slug, search.get('forced_country')), enabled: isValid });
  usePageTitle(lander.data ? t(`niche.${lander.data.niche}.headline`) : null);
  if (!isValid || !name) return <ErrorPage status={404} />;
  if (!lander.data) return null;
  return (
    <Suspense fallback={null}>
      <LanderApp
        site={{ settings, locale }}
        name={name}
        data={lander.data}
        Design={LAZY_DESIGNS[name]}
        isLoggedIn={user !== null}
        isEntryWarningDismissed={readCookie(ENTRY_WARNING_STORAGE_KEY) !== null || storage.isDismissed(ENTRY_WARNING_STORAGE_KEY)}
        onSignup={(profileId) => openSignup({ profileId })}
      />
    </Suspense>
  );
}
