import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { ConversationPage } from './conversation-page';
import { InboxListPage } from './inbox-list-page';
import { useInboxLive } from './inbox-live';

function NotFound() {
  const { t } = useTranslation('console');
  return (
    <p className="alert alert-warning" data-testid="console-not-found">
      {t('notFound')}
    </p>
  );
}

/**
 * The fictional-profile inbox (operators and admins): the list, and one conversation at :conversationId. One live
 * channel serves both while the inbox is open: what changes shows without a reload.
 */
export function InboxPage() {
  const live = useInboxLive();
  return (
    <Routes>
      <Route index element={<InboxListPage live={live} />} />
      <Route path=":conversationId" element={<ConversationPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export { InboxPage as Component };
