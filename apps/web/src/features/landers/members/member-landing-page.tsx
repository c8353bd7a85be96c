import { ENTRY_WARNING_STORAGE_KEY, isLanderSlug } from '@amora/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { readCookie } from '@/lib/cookies';
import { storage } from '@/lib/storage';
import { ErrorPage } from '@/shared/errors/error-page';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useRouteName } from '@/shared/site/use-route-name';
import { memberLandingQuery } from './api';
import { MEMBER_LANDING_LAYOUTS } from './index';
import { MemberLandingApp } from './member-landing-app';
import { landingProfileIdOf, type MemberLandingLayout, type MemberLandingProps, memberLandingLayoutOf } from './member-landing-types';

/** Each layout as a lazy component, made once. */
const lazyLayout = (layout: MemberLandingLayout) => lazy(() => MEMBER_LANDING_LAYOUTS[layout]().then((Layout) => ({ default: Layout })));
const LAZY_LAYOUTS: Record<MemberLandingLayout, ComponentType<MemberLandingProps>> = {
  landing: lazyLayout('landing'),
  landing2: lazyLayout('landing2'),
  landing3: lazyLayout('landing3'),
};

/**
 * A member landing (/members/{id}/landing, /members/{id}/landing2/{slug?}, /members/{id}/landing3/{slug?}) when the
 * app itself shows one: the server serves these addresses with the landers' own small page (app/lander), so this
 * is the app's way there and what its tests render. A profile no landing may show, or a slug that does not
 * exist, is the 404 page.
 */
export function MemberLandingPage() {
  const params = useParams();
  const { search } = useLocation();
  const layout = memberLandingLayoutOf(useRouteName());
  const profileId = landingProfileIdOf(params.id);
  const settings = useSettings();
  const locale = useLocale();
  const user = useUser();
  const { t } = useTranslation('landers');
  const isValid = layout !== null && profileId !== null && (params.slug === undefined || isLanderSlug(params.slug));
  const landing = useQuery({ ...memberLandingQuery(profileId ?? 0), enabled: isValid });
  usePageTitle(landing.data ? t('member.pageTitle', { name: landing.data.name, site: settings.name }) : null);
  if (!isValid || landing.isError) return <ErrorPage status={404} />;
  if (!landing.data) return null;
  return (
    <Suspense fallback={null}>
      <MemberLandingApp
        site={{ settings, locale }}
        layout={layout}
        profile={landing.data}
        query={search}
        Layout={LAZY_LAYOUTS[layout]}
        isLoggedIn={user !== null}
        isEntryWarningDismissed={readCookie(ENTRY_WARNING_STORAGE_KEY) !== null || storage.isDismissed(ENTRY_WARNING_STORAGE_KEY)}
      />
    </Suspense>
  );
}
