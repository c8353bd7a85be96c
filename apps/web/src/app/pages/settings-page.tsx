import { SettingsPage } from '@/features/auth/pages/settings-page';
import { BlockedMembers } from '@/features/profiles/components/blocked-members';

/** /settings: the account settings of features/auth with the list of members I blocked from features/profiles. */
export function Component() {
  return <SettingsPage blockedMembers={<BlockedMembers />} />;
}
