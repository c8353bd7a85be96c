import { useTranslation } from 'react-i18next';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { ActivationReminder } from '@/features/auth/components/activation-reminder';
import { MessagesTitleCount } from '@/features/chat/components/messages-title-count';
import { ModerationNotices } from '@/features/complaints/components/moderation-notices';
import { TimeBonusBanner } from '@/features/discounts/components/time-bonus-banner';
import { TimeBonusModal } from '@/features/discounts/components/time-bonus-modal';
import { WelcomeDiscountBanner } from '@/features/discounts/components/welcome-discount-banner';
import { AutoLike } from '@/features/likes/components/auto-like';
import { DisabledNotificationsAlert } from '@/features/notifications/components/disabled-notifications-alert';
import { PhotoAlert } from '@/features/profiles/components/photo-alert';
import { PushAlert } from '@/shared/push/push-alert';
import { PushStart } from '@/shared/push/push-start';
import { LocalLink } from '@/shared/site/local-link';
import { useRouteName } from '@/shared/site/use-route-name';
import { BottomTabBar } from './bottom-tab-bar';
import { NavBadge } from './nav-badge';
import { activeNavItem, useMemberNav } from './nav-items';

/**
 * What only a logged-in member's pages show, as one chunk of its own (loaded by member-parts.ts): a visitor's
 * page never carries it. The server preloads it with a member's page and the app's boot waits for it, so a
 * member's first screen has all of it at once.
 */

/** The members-area banners of the default layout's strip (each renders nothing when it does not apply). */
export function MemberBanners() {
  return (
    <>
      <ModerationNotices />
      <TimeBonusBanner />
      <WelcomeDiscountBanner />
      <ActivationReminder />
      <DisabledNotificationsAlert />
      <PhotoAlert />
      <PushAlert />
    </>
  );
}

/**
 * A member's page in the background: likes (title count, auto-like, like modal), the chat (unread count in the
 * title, live channel, outbox) and push (the worker, the subscription sent again); on the default layout also the
 * time-bonus modal.
 */
export function MemberBackground({ withTimeBonus = false }: { withTimeBonus?: boolean }) {
  return (
    <>
      <AutoLike />
      <MessagesTitleCount />
      <PushStart />
      {withTimeBonus && <TimeBonusModal />}
    </>
  );
}

/** The members' navigation in the desktop top bar: the items of MEMBER_NAV with their badges. */
export function MemberTopNav() {
  const { t } = useTranslation();
  const items = useMemberNav();
  const active = activeNavItem(useRouteName(), items);
  return (
    <nav aria-label={t('nav.main')} className="ms-auto">
      <ul className="top-nav">
        {items.map((item) => (
          <li key={item.id}>
            <LocalLink
              to={item.to}
              className="top-nav-link"
              aria-current={item === active ? 'page' : undefined}
              data-testid={`nav-${item.id}`}
            >
              <span className="top-nav-long">{t(item.label)}</span>
              <span className="top-nav-short">{t(item.tabLabel)}</span>
              {item.badge && <NavBadge badge={item.badge} />}
            </LocalLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export { AccountMenu, BottomTabBar };
