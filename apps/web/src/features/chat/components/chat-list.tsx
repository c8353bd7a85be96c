import type { Chat } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@/components/ui/avatar';
import { CountBadge } from '@/components/ui/badge';
import { useConfirm } from '@/components/ui/confirm';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { formatChatTime } from '@/lib/format-time';
import { useSettings } from '@/shared/site/api/get-settings';
import { FictionalIcon } from '@/shared/site/fictional-icon';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { useChats, useDeleteChat } from '../api/chats';

/** What the list shows of the last message: the text, or what kind of message it was. */
function usePreview() {
  const { t } = useTranslation();
  return (chat: Chat): string => {
    const last = chat.last_message;
    if (!last) return t('chat.noMessagesYet');
    const gift = last.kind === 'gift' ? (last.gift ? t(`chat.gifts.${last.gift}`) : t('chat.gift')) : null;
    const what = gift ?? (last.kind === 'photo' ? t('chat.photo') : last.body || t('chat.removed'));
    return last.from_me ? t('chat.fromMe', { text: what }) : what;
  };
}

/** The conversation list (spec §2 chats): avatar, name, last message and its time, unread count; delete. */
export function ChatList({ openId, onDeleted }: { openId: number | null; onDeleted: (id: number) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const settings = useSettings();
  const confirm = useConfirm();
  const chats = useChats();
  const preview = usePreview();
  const remove = useDeleteChat(() => window.alert(t('chat.deleteFailed')));

  if (chats.isPending) {
    return (
      <SkeletonRegion label={t('chat.title')} className="p-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="d-flex gap-2 align-items-center mb-3">
            <Skeleton shape="circle" width={40} height={40} />
            <div className="flex-grow-1">
              <Skeleton width="60%" />
              <Skeleton width="90%" />
            </div>
          </div>
        ))}
      </SkeletonRegion>
    );
  }
  const list = chats.data?.chats ?? [];
  if (list.length === 0) {
    return (
      <EmptyState
        testId="chats-empty"
        title={t('chat.empty.title')}
        text={t('chat.empty.text')}
        action={
          <LocalLink to="/members" className="btn btn-primary">
            {t('nav.search')}
          </LocalLink>
        }
      />
    );
  }

  const ask = async (chat: Chat) => {
    const isSure = await confirm({
      title: t('chat.deleteTitle', { name: chat.profile.name }),
      message: t('chat.deleteText', { name: chat.profile.name }),
      confirmLabel: t('chat.delete'),
      isDanger: true,
    });
    if (!isSure) return;
    onDeleted(chat.conversation.id);
    remove.mutate(chat.conversation.id);
  };

  return (
    <ul className="chat-list list-unstyled m-0" data-testid="chat-list">
      {list.map((chat) => (
        <li key={chat.conversation.id} className="chat-list-item" data-testid="chat-list-item" data-profile-id={chat.profile.id}>
          <LocalLink
            to={`/chats/${chat.conversation.id}`}
            className={`chat-list-link${chat.conversation.id === openId ? ' active' : ''}`}
            aria-current={chat.conversation.id === openId ? 'page' : undefined}
          >
            <Avatar name={chat.profile.name} src={chat.profile.thumb_url} />
            <span className="chat-list-text">
              <span className="chat-list-top">
                <span className="chat-list-name">
                  {chat.profile.name}
                  {chat.profile.is_fictional && (
                    <span className="ms-1">
                      <FictionalIcon size={16} testId="chat-fictional-icon" />
                    </span>
                  )}
                </span>
                {chat.last_message && (
                  <time dateTime={chat.last_message.created_at}>{formatChatTime(chat.last_message.created_at, locale)}</time>
                )}
              </span>
              <span className="chat-list-bottom">
                <span className="chat-list-preview">{preview(chat)}</span>
                <CountBadge
                  count={chat.num_unread_messages}
                  label={t('chat.unread', { count: chat.num_unread_messages })}
                  testId="chat-unread"
                />
              </span>
              {chat.profile.is_fictional && <span className="chat-list-fictional">{settings.fictional_warning}</span>}
            </span>
          </LocalLink>
          <button
            type="button"
            className="chat-list-delete btn btn-link"
            onClick={() => void ask(chat)}
            aria-label={t('chat.deleteTitle', { name: chat.profile.name })}
            data-testid="chat-delete"
          >
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
