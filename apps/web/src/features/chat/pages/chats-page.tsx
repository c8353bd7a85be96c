import type { SendMessageResponse } from '@amora/contracts';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Button, buttonClass } from '@/components/ui/button';
import { SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useIsPhone } from '@/lib/use-media-query';
import { useUser } from '@/shared/session/user';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useRouteName } from '@/shared/site/use-route-name';
import { useChatPartner, useChats } from '../api/chats';
import { chatToReopen, lastChatOpened, rememberChatOpened } from '../api/last-chat';
import { ChatList } from '../components/chat-list';
import { Conversation } from '../components/conversation';
import '../components/chat.css';

/** /members/{id}/chat: the chat with that member if there is one, else a new one that starts with the first send. */
function MemberChat({ profileId, onBack }: { profileId: number; onBack: () => void }) {
  const { t } = useTranslation();
  const chats = useChats();
  const existing = chats.data?.chats.find((chat) => chat.profile.id === profileId);
  const member = useChatPartner(profileId, chats.isSuccess && !existing);
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const onSent = useCallback(
    (answer: SendMessageResponse) => navigate(localePath(`/chats/${answer.message.conversation_id}`), { replace: true }),
    [navigate, localePath],
  );
  if (existing) return <Navigate to={localePath(`/chats/${existing.conversation.id}`)} replace />;
  const profile = member.data?.profile;
  if (chats.isPending || !profile) {
    if (member.isError) {
      // On phones this stands alone in the chat layout, without the list or a top bar: it offers the ways on.
      return (
        <div className="chat-pick text-center" data-testid="partner-gone">
          <p role="alert">{t('chat.errors.partnerGone')}</p>
          <div className="d-flex flex-wrap justify-content-center gap-2">
            <Button variant="outline-primary" onClick={onBack}>
              {t('chat.back')}
            </Button>
            <LocalLink to="/members" className={buttonClass()}>
              {t('chat.toSearch')}
            </LocalLink>
          </div>
        </div>
      );
    }
    return (
      <SkeletonRegion label={t('chat.loading')} className="chat-window p-3">
        <SkeletonText lines={3} />
      </SkeletonRegion>
    );
  }
  const partner = {
    id: profile.id,
    name: profile.name,
    is_fictional: profile.is_fictional,
    thumb_url: profile.photos[0]?.thumb_url ?? null,
  };
  return <Conversation key={`p${profileId}`} target={{ profile: profileId }} partner={partner} onBack={onBack} onSent={onSent} />;
}

/**
 * The chats (spec §2 chats, chats-id, members-id-chat) in the chat layout: the conversation list 300–400 px wide
 * beside the open chat from md up; on phones the list, then the chat on its own. The chat opened is remembered
 * (last_chat_opened_profile and _date, spec §3), and /chats from md up opens it again while it is still in the list
 * and nobody blocked; otherwise, and on phones, the list.
 */
export function Component() {
  const { t } = useTranslation();
  const route = useRouteName();
  const params = useParams();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const user = useUser();
  const id = Number(params.id);
  const openId = route === 'chats-id' && Number.isInteger(id) ? id : null;
  const memberId = route === 'members-id-chat' && Number.isInteger(id) ? id : null;
  const isOpen = openId !== null || memberId !== null;
  usePageTitle(t('chat.title'));
  const back = () => navigate(localePath('/chats'));
  const isPhone = useIsPhone();
  const chats = useChats();
  const memberNumber = user?.id ?? null;
  const openProfile = openId !== null ? chats.data?.chats.find((chat) => chat.conversation.id === openId)?.profile.id : memberId;
  useEffect(() => {
    if (memberNumber !== null && openProfile != null) rememberChatOpened(memberNumber, openProfile);
  }, [memberNumber, openProfile]);

  if (!user) return <Navigate to={localePath('/login')} replace />;
  // Not a page the server renders: storage may be read here.
  const reopen = !isOpen && !isPhone && chats.data ? chatToReopen(chats.data.chats, lastChatOpened(user.id)) : null;
  if (reopen) return <Navigate to={localePath(`/chats/${reopen.conversation.id}`)} replace />;
  return (
    <div className={`chat-page${isOpen ? ' is-open' : ''}`} data-testid="chats-page">
      <aside className="chat-aside">
        <header className="chat-aside-header">
          <LocalLink to="/members" className="chat-home" aria-label={t('chat.toSearch')}>
            <span aria-hidden="true">‹</span>
          </LocalLink>
          <h1 className="h5 m-0">{t('chat.title')}</h1>
        </header>
        <nav aria-label={t('chat.title')} className="chat-aside-list">
          <ChatList openId={openId} onDeleted={(deleted) => (deleted === openId ? back() : undefined)} />
        </nav>
      </aside>
      <main className="chat-main" id="main">
        {openId !== null && <Conversation key={openId} target={{ conversation: openId }} onBack={back} />}
        {memberId !== null && <MemberChat profileId={memberId} onBack={back} />}
        {!isOpen && <p className="chat-pick text-body-secondary">{t('chat.pick')}</p>}
      </main>
    </div>
  );
}
