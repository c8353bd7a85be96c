import type { Message } from '@amora/contracts';
import './chat-safety.css';
import { useTranslation } from 'react-i18next';
import { Menu } from '@/components/ui/menu';
import { useMediaQuery } from '@/lib/use-media-query';
import { useChatSafety } from './chat-safety-context';
import { FictionalLabel } from './fictional-label';

/**
 * Under a message: for the partner's, the fictional label when the profile is one of the site's own, and a way to
 * report the message; for mine, "Seen" under the last one the partner has read (when both have receipts on).
 * With a mouse the report link shows beside the bubble on hover; on a touch screen it is the one item of a small
 * "⋯" menu beside the bubble, so a phone's chat is not a column of Report links.
 */
export function MessageExtras({ message, isFictional }: { message: Message; isFictional: boolean }) {
  const { t } = useTranslation();
  const { seenSeq, openReport } = useChatSafety();
  const canHover = useMediaQuery('(hover: hover)');
  if (message.from_me) {
    return message.seq === seenSeq ? (
      <div className="chat-seen" data-testid="chat-seen">
        {t('chatSafety.seen')}
      </div>
    ) : null;
  }
  return (
    <div className="chat-extras">
      {isFictional && <FictionalLabel />}
      {canHover ? (
        <button
          type="button"
          className="btn btn-link btn-sm p-0 chat-report-message"
          onClick={() => openReport(message.id)}
          data-testid="chat-report-message"
        >
          {t('chatSafety.report.message')}
        </button>
      ) : (
        <div className="chat-message-menu">
          <Menu
            label={
              <>
                <span aria-hidden="true">⋯</span>
                <span className="visually-hidden">{t('chat.messageOptions')}</span>
              </>
            }
            buttonClassName="btn btn-link chat-message-menu-button"
            testId="chat-message-menu"
          >
            {(close) => (
              <li>
                <button
                  type="button"
                  className="dropdown-item"
                  onClick={() => {
                    close();
                    openReport(message.id);
                  }}
                  data-testid="chat-report-message"
                >
                  {t('chatSafety.report.titleMessage')}
                </button>
              </li>
            )}
          </Menu>
        </div>
      )}
    </div>
  );
}

/** In the chat's header: report the partner. */
export function ReportMemberButton() {
  const { t } = useTranslation();
  const { openReport, partnerName, conversationId } = useChatSafety();
  if (conversationId === null) return null;
  return (
    <button
      type="button"
      className="btn btn-link btn-sm ms-auto chat-report-member"
      onClick={() => openReport()}
      aria-label={t('chatSafety.report.memberLabel', { name: partnerName })}
      data-testid="chat-report-member"
    >
      {t('chatSafety.report.member')}
    </button>
  );
}
