import { useTranslation } from 'react-i18next';
import { Route, Routes } from 'react-router';
import { ItemPage } from './item-page';
import { QueuePage } from './queue-page';

function NotFound() {
  const { t } = useTranslation('console');
  return (
    <p className="alert alert-warning" data-testid="console-not-found">
      {t('notFound')}
    </p>
  );
}

/** Moderation (moderators and admins): the queue, and one item of it at items/:kind/:id. */
export function ModerationPage() {
  return (
    <Routes>
      <Route index element={<QueuePage />} />
      <Route path="items/:kind/:id" element={<ItemPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export { ModerationPage as Component };
