import { SettingsPage } from '@/features/auth/pages/settings-page';
import { DataExportCard } from '@/features/data-export/components/data-export-card';
import { BlockedMembers } from '@/features/profiles/components/blocked-members';

/**
 * /settings: the account settings of features/auth with the list of members I blocked from features/profiles and
 * the copy of my data from features/data-export.
 */
export function Component() {
  return <SettingsPage blockedMembers={<BlockedMembers />} dataExport={<DataExportCard />} />;
}
