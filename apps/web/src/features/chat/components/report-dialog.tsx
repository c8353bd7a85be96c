import { CHAT_REPORT_REASONS, CHAT_REPORT_TEXT_MAX, type ChatReportReason } from '@amora/contracts';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorText } from '@/lib/error-text';
import { postChatReport } from '../api/chat-safety';

/**
 * What is reported: the other member of a conversation, or one of their messages in it; or, from a profile page,
 * the profile.
 */
export type ReportTarget =
  | {
      conversation: number;
      /** The message's id; absent when the member is reported. */
      message?: number;
      name: string;
    }
  | { profile: number; name: string };

/**
 * Reporting from the chat: why (one of the reasons), an optional note, then a clear confirmation with the
 * reference moderation files it under. It reaches the complaints queue; nothing else changes in the chat.
 */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [reason, setReason] = useState<ChatReportReason | null>(null);
  const [text, setText] = useState('');
  const report = useMutation({ mutationFn: postChatReport });
  const close = () => {
    setReason(null);
    setText('');
    report.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target || !reason) return;
    report.mutate({
      ...('profile' in target
        ? { profile: target.profile }
        : { conversation: target.conversation, ...(target.message !== undefined ? { message: target.message } : {}) }),
      reason,
      ...(text.trim() ? { text: text.trim() } : {}),
    });
  };
  const isMessage = target !== null && 'message' in target && target.message !== undefined;
  return (
    <Dialog isOpen={target !== null} onClose={close} labelledBy={titleId} testId="report-dialog">
      <div className="modal-header">
        <h2 className="modal-title h5" id={titleId}>
          {isMessage ? t('chatSafety.report.titleMessage') : t('chatSafety.report.titleMember', { name: target?.name ?? '' })}
        </h2>
        <button type="button" className="btn-close" aria-label={t('common.close')} onClick={close} />
      </div>
      {report.isSuccess ? (
        <>
          <div className="modal-body" role="status" data-testid="report-done">
            <p className="fw-semibold">{t('chatSafety.report.done')}</p>
            <p className="mb-0">{t('chatSafety.report.reference', { reference: report.data.reference })}</p>
          </div>
          <div className="modal-footer">
            <Button onClick={close} testId="report-close">
              {t('common.close')}
            </Button>
          </div>
        </>
      ) : (
        <form noValidate onSubmit={submit} data-testid="report-form">
          <div className="modal-body">
            {report.error && (
              <div className="alert alert-danger" role="alert">
                {errorText(t, report.error)}
              </div>
            )}
            <fieldset>
              <legend className="form-label fs-6">{t('chatSafety.report.why')}</legend>
              {CHAT_REPORT_REASONS.map((r) => (
                <div className="form-check" key={r}>
                  <input
                    className="form-check-input"
                    type="radio"
                    name="report-reason"
                    id={`${titleId}-${r}`}
                    value={r}
                    checked={reason === r}
                    onChange={() => setReason(r)}
                  />
                  <label className="form-check-label" htmlFor={`${titleId}-${r}`}>
                    {t(`chatSafety.report.reasons.${r}`)}
                  </label>
                </div>
              ))}
            </fieldset>
            <label className="form-label mt-3" htmlFor={`${titleId}-text`}>
              {t('chatSafety.report.note')}
            </label>
            <textarea
              id={`${titleId}-text`}
              className="form-control"
              rows={3}
              maxLength={CHAT_REPORT_TEXT_MAX}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
            <p className="form-text mb-0">{t('chatSafety.report.hint')}</p>
          </div>
          <div className="modal-footer">
            <Button variant="outline-dark" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={!reason} isLoading={report.isPending} testId="report-submit">
              {t('chatSafety.report.submit')}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
