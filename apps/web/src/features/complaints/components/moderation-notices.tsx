import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MemberBanner } from '@/components/ui/member-banner';
import { useUser } from '@/shared/session/user';
import { useAcknowledgeNotices, useModerationNotices } from '../api/moderation-notices';

function Notices() {
  const { t } = useTranslation();
  const notices = useModerationNotices();
  const acknowledge = useAcknowledgeNotices();
  const [closed, setClosed] = useState<{ warning?: number; reports?: boolean }>({});
  const warning = notices.data?.warning;
  const handled = notices.data?.handled_reports ?? [];
  return (
    <>
      {warning && closed.warning !== warning.id && (
        <MemberBanner
          label={t('moderationNotices.warningLabel')}
          testId="moderation-warning"
          className="alert-danger rounded-0 mb-0 border-0 border-bottom"
          onClose={() => {
            setClosed((c) => ({ ...c, warning: warning.id }));
            acknowledge.mutate({ warning_id: warning.id });
          }}
        >
          {warning.reason ? t('moderationNotices.warning', { reason: warning.reason }) : t('moderationNotices.warningNoReason')}
        </MemberBanner>
      )}
      {handled.length > 0 && !closed.reports && (
        <MemberBanner
          label={t('moderationNotices.reportsLabel')}
          testId="moderation-reports-handled"
          onClose={() => {
            setClosed((c) => ({ ...c, reports: true }));
            acknowledge.mutate({ reports: true });
          }}
        >
          {handled.length === 1
            ? t('moderationNotices.reportHandled', { reference: handled[0].reference })
            : t('moderationNotices.reportsHandled')}
        </MemberBanner>
      )}
    </>
  );
}

/**
 * What moderation tells the member, as banners of the strip until they close them: a moderator's warning, and
 * that reports they filed were looked into (never what was done). Asked for in the browser only, after the page
 * has been taken over: a server-rendered page carries none of it.
 */
export function ModerationNotices() {
  const user = useUser();
  const [isMounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!user || !isMounted) return null;
  return <Notices />;
}
