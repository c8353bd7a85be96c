import { Route, Routes } from 'react-router';
import { ConsoleNotFound } from '../shell/console-errors';
import { ItemPage } from './item-page';
import { QueuePage } from './queue-page';

/** Moderation (moderators and admins): the queue, and one item of it at items/:kind/:id. */
export function ModerationPage() {
  return (
    <Routes>
      <Route index element={<QueuePage />} />
      <Route path="items/:kind/:id" element={<ItemPage />} />
      <Route path="*" element={<ConsoleNotFound />} />
    </Routes>
  );
}

export { ModerationPage as Component };
