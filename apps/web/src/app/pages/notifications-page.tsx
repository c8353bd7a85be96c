import { DeleteAccountSection } from '@/features/auth/pages/settings-page';
import { NotificationsPage } from '@/features/notifications/pages/notifications-page';

/** /notifications: the notification choices of features/notifications with the delete-account item of features/auth (spec §2). */
export function Component() {
  return <NotificationsPage deleteAccount={<DeleteAccountSection />} />;
}
