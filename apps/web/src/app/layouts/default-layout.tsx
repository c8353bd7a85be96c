import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Disclaimer } from '@/features/layout/disclaimer';
import { EntryWarning } from '@/features/layout/entry-warning';
import { Footer } from '@/features/layout/footer';
import { TopBar } from '@/features/layout/top-bar';
import { useRouteName } from '@/features/site/use-route-name';
import { isInstalledApp } from '@/lib/installed-app';

/** Default layout of spec §2: top navigation, banners, page, footer, disclaimer, entry warning. */
export function DefaultLayout() {
  const route = useRouteName();
  const { t } = useTranslation();
  const isTopMenuHidden = route === 'complete-signup';
  return (
    <>
      <a className="visually-hidden-focusable position-absolute p-2 bg-white" href="#main">
        {t('a11y.skipToContent')}
      </a>
      {!isTopMenuHidden && <TopBar />}
      <Outlet />
      <Disclaimer />
      <Footer mode={isInstalledApp() ? 'installed-app' : 'logged-out'} />
      <EntryWarning />
    </>
  );
}
