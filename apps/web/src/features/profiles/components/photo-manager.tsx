import './photo-manager.css';
import type { OwnPhoto, OwnProfile } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm';
import { useToast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { userQueryKey } from '@/shared/session/user';
import { ownProfileKey, uploadPhoto, useDeletePhoto, useSetMainPhoto } from '../api/profile';

/** What the server takes (photos.php): JPEG, PNG or WebP up to 15 MB; anything else is refused here first. */
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
const PHOTO_MAX_BYTES = 15 * 1024 * 1024;

/** The catalogue key of a file the server would refuse, or null for a file worth sending. */
function refusal(file: File): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return 'errorCodes.photo_type';
  if (file.size > PHOTO_MAX_BYTES) return 'errorCodes.photo_too_large';
  return null;
}

function StarIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function TrashIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * Upload (drop photos on the zone, or tap or press it for the file picker, with progress), delete (asked first)
 * and choose the main photo. The limit is the server's (3 free, 25 premium); the zone goes when it is reached.
 */
export function PhotoManager({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toast = useToast();
  const confirm = useConfirm();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isDragging, setIsDragging] = useState(false);
  const remove = useDeletePhoto();
  const setMain = useSetMainPhoto();
  const isFull = profile.photos.length >= profile.photo_limit;
  const isUploading = progress !== null;

  const addToProfile = (photo: OwnPhoto) =>
    queryClient.setQueryData<OwnProfile>(ownProfileKey, (old) =>
      old && !old.photos.some((p) => p.id === photo.id) ? { ...old, photos: [...old.photos, photo] } : old,
    );

  /** One file after the other, no more than the free places; the first refusal stops the rest. */
  const handleFiles = async (files: File[]) => {
    if (files.length === 0 || isUploading) return;
    setError(null);
    const places = Math.max(0, profile.photo_limit - profile.photos.length);
    if (places === 0) {
      setError(t('errorCodes.photo_limit', { count: profile.photo_limit }));
      return;
    }
    let added = 0;
    try {
      for (const file of files.slice(0, places)) {
        const refused = refusal(file);
        if (refused) {
          setError(t(refused));
          break;
        }
        setProgress(0);
        addToProfile(await uploadPhoto(file, setProgress));
        added += 1;
      }
      if (files.length > places && added === places) setError(t('errorCodes.photo_limit', { count: profile.photo_limit }));
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
      if (added > 0) toast.show({ message: t('profile.photos.added', { count: added }), testId: 'photo-added' });
      void queryClient.invalidateQueries({ queryKey: ownProfileKey });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    }
  };

  const handleDelete = async (photo: OwnPhoto) => {
    const isSure = await confirm({
      title: t('profile.photos.deleteTitle'),
      message: photo.is_main ? t('profile.photos.deleteMainText') : undefined,
      confirmLabel: t('profile.photos.delete'),
      isDanger: true,
    });
    if (!isSure) return;
    remove.mutate(photo.id, {
      onSuccess: () => toast.show({ message: t('profile.photos.deleted'), testId: 'photo-deleted' }),
      onError: (err) => toast.show({ message: errorText(t, err), variant: 'danger' }),
    });
  };

  const handleMakeMain = (photo: OwnPhoto) =>
    setMain.mutate(photo.id, {
      onSuccess: () => toast.show(t('profile.saved')),
      onError: (err) => toast.show({ message: errorText(t, err), variant: 'danger' }),
    });

  const dragProps = {
    onDragEnter: (event: DragEvent) => {
      event.preventDefault();
      setIsDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      // Leaving for a child of the zone is not leaving the zone.
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setIsDragging(false);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setIsDragging(false);
      void handleFiles(Array.from(event.dataTransfer.files));
    },
  };

  return (
    <section className="card mb-4" aria-labelledby="photos-title" data-testid="photo-manager">
      <div className="card-body">
        <div className="d-flex justify-content-between align-items-baseline mb-2">
          <h2 className="h5 mb-0" id="photos-title">
            {t('profile.photos.title')}
          </h2>
          <span className="small text-body-secondary" data-testid="photo-count">
            {t('profile.photos.count', { used: profile.photos.length, max: profile.photo_limit })}
          </span>
        </div>
        <ul className="photo-grid list-unstyled mb-3" data-testid="own-photos">
          {profile.photos.map((photo) => (
            <li key={photo.id}>
              <figure className="photo-tile mb-0" data-testid="own-photo">
                <img src={photo.urls.thumb} alt={t('profile.photos.alt')} width={photo.width} height={photo.height} />
                <div className="photo-tile-badges">
                  {photo.is_main && <Badge variant="primary">{t('profile.photos.main')}</Badge>}
                  {photo.status === 'pending' && <Badge variant="warning">{t('profile.photos.pending')}</Badge>}
                </div>
                <figcaption className="photo-tile-actions">
                  {!photo.is_main && (
                    <Button
                      variant="light"
                      className="photo-tile-btn"
                      onClick={() => handleMakeMain(photo)}
                      disabled={setMain.isPending}
                      title={t('profile.photos.makeMain')}
                      testId="make-main"
                    >
                      <StarIcon />
                      <span className="visually-hidden">{t('profile.photos.makeMain')}</span>
                    </Button>
                  )}
                  <Button
                    variant="light"
                    className="photo-tile-btn ms-auto text-danger"
                    onClick={() => void handleDelete(photo)}
                    disabled={remove.isPending && remove.variables === photo.id}
                    title={t('profile.photos.delete')}
                    testId="delete-photo"
                  >
                    <TrashIcon />
                    <span className="visually-hidden">{t('profile.photos.delete')}</span>
                  </Button>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
        {error && (
          <div className="alert alert-danger py-2" role="alert" data-testid="photo-error">
            {error}
          </div>
        )}
        {isFull ? (
          <p className="mb-0 text-body-secondary" data-testid="photo-limit">
            {t('profile.photos.full', { count: profile.photo_limit })}
          </p>
        ) : (
          <div
            className={['photo-drop', isDragging ? 'is-dragging' : null, isUploading ? 'is-uploading' : null].filter(Boolean).join(' ')}
            data-testid="photo-drop"
            {...dragProps}
          >
            {/* Enter or Space on the focused input, a tap or a click on the zone: the file picker. */}
            <input
              ref={input}
              id="photo-upload"
              type="file"
              accept={PHOTO_TYPES.join(',')}
              multiple
              className="visually-hidden"
              disabled={isUploading}
              aria-describedby="photo-drop-hint photo-upload-help"
              onChange={(event) => void handleFiles(Array.from(event.target.files ?? []))}
            />
            <svg aria-hidden="true" viewBox="0 0 24 24" width="32" height="32" className="photo-drop-icon">
              <path
                fill="currentColor"
                d="M12 3a1 1 0 0 1 .7.3l4 4a1 1 0 1 1-1.4 1.4L13 6.4V15a1 1 0 1 1-2 0V6.4L8.7 8.7a1 1 0 0 1-1.4-1.4l4-4A1 1 0 0 1 12 3Zm-7 13a1 1 0 0 1 1 1v2h12v-2a1 1 0 1 1 2 0v2a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-2a1 1 0 0 1 1-1Z"
              />
            </svg>
            {/* The label covers the whole zone (::after), so a tap or click anywhere on it opens the file picker. */}
            <label htmlFor="photo-upload" className="photo-drop-label fw-semibold">
              {isDragging ? t('profile.photos.dropNow') : t('profile.photos.add')}
            </label>
            <span className="small text-body-secondary" id="photo-drop-hint">
              {t('profile.photos.dropHint')}
            </span>
            {isUploading && (
              <div
                className="progress w-100"
                role="progressbar"
                aria-label={t('profile.photos.uploading')}
                aria-valuenow={Math.round(progress * 100)}
                aria-valuemin={0}
                aria-valuemax={100}
                data-testid="upload-progress"
              >
                <div className="progress-bar" style={{ width: `${Math.round(progress * 100)}%` }} />
              </div>
            )}
            <div id="photo-upload-help" className="form-text mt-0">
              {t('profile.photos.help')}
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
