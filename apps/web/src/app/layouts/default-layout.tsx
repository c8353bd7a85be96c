import { useTranslation } from 'react-i18next';
import { BannerStrip } from '@/app/shell/banner-strip';
import { Disclaimer } from '@/app/shell/disclaimer';
import { EntryWarning } from '@/app/shell/entry-warning';
import { Footer } from '@/app/shell/footer';
import { useMemberShell } from '@/app/shell/member-parts';
import { TopBar } from '@/app/shell/top-bar';
import { VisitorLikeModal } from '@/features/likes/components/like-modal';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { useRouteName } from '@/shared/site/use-route-name';
import { PageOutlet } from './page-outlet';
import { useFooterMode } from './use-footer-mode';

/**
 * Default layout of spec §2: top navigation, banners (one compact strip), page, footer, disclaimer, entry
 * warning; likes for members, the like modal for visitors too. On phones a member's navigation is the bottom
 * tab bar. What only members see comes from the member parts (app/shell/member-parts.ts), which a visitor's
 * page does not load.
 */
export function DefaultLayout() {
  const route = useRouteName();
  const { t } = useTranslation();
  const user = useUser();
  const footerMode = useFooterMode();
  const isTopMenuHidden = route === 'complete-signup';
  const isPhone = useIsPhone();
  const member = useMemberShell(user !== null);
  return (
    <>
      <a className="skip-link visually-hidden-focusable position-absolute p-2 bg-white" href="#main">
        {t('a11y.skipToContent')}
      </a>
      {!isTopMenuHidden && <TopBar />}
      <BannerStrip>{member && <member.MemberBanners />}</BannerStrip>
      <PageOutlet />
      <Disclaimer />
      <Footer mode={footerMode} />
      {member && isPhone && !isTopMenuHidden && <member.BottomTabBar />}
      <EntryWarning isLoggedIn={user !== null} />
      {user ? member && <member.MemberBackground withTimeBonus /> : <VisitorLikeModal />}
    </>
  );
}
