import type { Message, SendMessageResponse } from '@amora/contracts';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Sheet } from '@/components/ui/sheet';
import { ApiRequestError } from '@/lib/api-client';
import { useSettings } from '@/shared/site/api/get-settings';
import { postPhotoReveal, uploadChatPhoto } from '../api/chats';
import type { ChatTarget } from '../api/use-conversation';
import './chat-media.css';

const ACCEPT = 'image/jpeg,image/png,image/webp';

/**
 * A photo message in the chat. The sender sees it as sent; the recipient first sees it blurred (the server sends
 * only the blurred file until then) with a button to show it: nobody is shown an image they did not ask to see.
 * The reveal is remembered by the server, so the photo stays visible on every device.
 */
export function PhotoBubble({ message, partnerName }: { message: Message; partnerName: string }) {
  const { t } = useTranslation();
  const [isRevealing, setIsRevealing] = useState(false);
  const [failed, setFailed] = useState(false);
  // What the reveal answered (the sharp photo's address); the next load of the chat has it from the server.
  const [revealed, setRevealed] = useState<Message['photo']>(undefined);
  const photo = revealed ?? message.photo;
  if (!photo) return <div className="chat-bubble">{t('chat.photo')}</div>;
  const alt = message.from_me ? t('chat.photoAltMine') : t('chat.photoAlt', { name: partnerName });
  const ratio = photo.width > 0 && photo.height > 0 ? `${photo.width} / ${photo.height}` : undefined;
  const reveal = async () => {
    setIsRevealing(true);
    setFailed(false);
    try {
      setRevealed((await postPhotoReveal(message.id)).message.photo);
    } catch {
      setFailed(true);
    } finally {
      setIsRevealing(false);
    }
  };
  return (
    <div className="chat-bubble chat-photo" data-testid="chat-photo" data-revealed={photo.revealed}>
      <img src={photo.url} alt={photo.revealed ? alt : ''} style={{ aspectRatio: ratio }} className={photo.revealed ? '' : 'is-blurred'} />
      {!photo.revealed && (
        <div className="chat-photo-veil">
          <span className="small">{t('chat.photoBlurred')}</span>
          <Button size="sm" variant="light" onClick={() => void reveal()} disabled={isRevealing} data-testid="chat-photo-reveal">
            {t('chat.photoReveal')}
          </Button>
          {failed && (
            <span className="small" role="alert">
              {t('errors.generic')}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The photo button: choose a file, see it, send it (photo_credits) with the upload's progress. A failure keeps the
 * photo and its client id, so sending again never stores or charges it twice.
 */
export function PhotoSender({
  target,
  isDisabled,
  onSent,
  onFailed,
}: {
  target: ChatTarget;
  isDisabled: boolean;
  onSent: (answer: SendMessageResponse) => void;
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const settings = useSettings();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [clientId, setClientId] = useState(() => crypto.randomUUID());
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setFile(chosen);
    setClientId(crypto.randomUUID());
    setError(null);
  };
  const close = () => {
    if (progress !== null) return;
    setFile(null);
    setPreview(null);
    setError(null);
  };
  const send = async () => {
    if (!file) return;
    setProgress(0);
    setError(null);
    try {
      const answer = await uploadChatPhoto(target, clientId, file, setProgress);
      setProgress(null);
      setFile(null);
      setPreview(null);
      onSent(answer);
    } catch (failure) {
      setProgress(null);
      if (failure instanceof ApiRequestError && failure.code === 'not_enough_credits') {
        setFile(null);
        setPreview(null);
        onFailed(failure);
      } else if (failure instanceof ApiRequestError && failure.status > 0) {
        const key = failure.body.message_key as string | undefined;
        setError(t(key ?? `errorCodes.${failure.code}`, { defaultValue: t('errors.generic') }));
      } else {
        setError(t('chat.offline'));
      }
    }
  };

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={t('chat.photoButton')}
        onChange={pick}
        data-testid="chat-photo-input"
      />
      <button
        type="button"
        className="btn btn-light chat-tool"
        onClick={() => input.current?.click()}
        disabled={isDisabled}
        aria-label={t('chat.photoButton')}
        title={t('chat.photoButton')}
        data-testid="chat-photo-button"
      >
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d="M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
          <circle cx="12" cy="13" r="4" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      <Sheet
        isOpen={file !== null}
        onClose={close}
        title={t('chat.photoTitle')}
        testId="chat-photo-sheet"
        footer={
          <>
            <span className="small text-body-secondary me-auto">{t('chat.photoPrice', { count: settings.photo_credits })}</span>
            <Button variant="light" onClick={() => input.current?.click()} disabled={progress !== null}>
              {t('chat.photoChoose')}
            </Button>
            <Button onClick={() => void send()} disabled={progress !== null} data-testid="chat-photo-send">
              {t('chat.photoSend')}
            </Button>
          </>
        }
      >
        {preview && <img src={preview} alt="" className="chat-photo-preview" />}
        {progress !== null && (
          <div className="mt-2">
            <div className="small mb-1">{t('chat.photoUploading')}</div>
            <div
              className="progress"
              role="progressbar"
              aria-label={t('chat.photoUploading')}
              aria-valuenow={Math.round(progress * 100)}
              aria-valuemin={0}
              aria-valuemax={100}
            >
              <div className="progress-bar" style={{ width: `${Math.round(progress * 100)}%` }} />
            </div>
          </div>
        )}
        {error && (
          <p className="text-danger small mt-2 mb-0" role="alert">
            {error}
          </p>
        )}
      </Sheet>
    </>
  );
}
