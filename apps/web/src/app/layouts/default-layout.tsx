import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { BannerStrip } from '@/app/shell/banner-strip';
import { BottomTabBar } from '@/app/shell/bottom-tab-bar';
import { Disclaimer } from '@/app/shell/disclaimer';
import { EntryWarning } from '@/app/shell/entry-warning';
import { Footer } from '@/app/shell/footer';
import { TopBar } from '@/app/shell/top-bar';
import { ActivationReminder } from '@/features/auth/components/activation-reminder';
import { MessagesTitleCount } from '@/features/chat/components/messages-title-count';
import { TimeBonusBanner } from '@/features/discounts/components/time-bonus-banner';
import { TimeBonusModal } from '@/features/discounts/components/time-bonus-modal';
import { WelcomeDiscountBanner } from '@/features/discounts/components/welcome-discount-banner';
import { AutoLike } from '@/features/likes/components/auto-like';
import { VisitorLikeModal } from '@/features/likes/components/like-modal';
import { PhotoAlert } from '@/features/profiles/components/photo-alert';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { useRouteName } from '@/shared/site/use-route-name';
import { useFooterMode } from './use-footer-mode';

/**
 * Default layout of spec §2: top navigation, banners (one compact strip), page, footer, disclaimer, entry
 * warning; likes for members, the like modal for visitors too. On phones a member's navigation is the bottom
 * tab bar.
 */
export function DefaultLayout() {
  const route = useRouteName();
  const { t } = useTranslation();
  const user = useUser();
  const footerMode = useFooterMode();
  const isTopMenuHidden = route === 'complete-signup';
  const isPhone = useIsPhone();
  return (
    <>
      <a className="skip-link visually-hidden-focusable position-absolute p-2 bg-white" href="#main">
        {t('a11y.skipToContent')}
      </a>
      {!isTopMenuHidden && <TopBar />}
      <BannerStrip>
        <TimeBonusBanner />
        <WelcomeDiscountBanner />
        <ActivationReminder />
        <PhotoAlert />
      </BannerStrip>
      <Outlet />
      <Disclaimer />
      <Footer mode={footerMode} />
      {user && isPhone && !isTopMenuHidden && <BottomTabBar />}
      <EntryWarning isLoggedIn={user !== null} />
      {user ? <AutoLike /> : <VisitorLikeModal />}
      {user && <MessagesTitleCount />}
      {user && <TimeBonusModal />}
    </>
  );
}
