import type { OwnProfile } from '@amora/contracts/core';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/error-text';
import { userQueryKey } from '@/shared/session/user';
import { ownProfileKey, uploadPhoto, useDeletePhoto, useSetMainPhoto } from '../api/profile';

/** Upload (with progress), delete and choose the main photo; the limit is the server's (3 free, 25 premium). */
export function PhotoManager({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = useDeletePhoto();
  const setMain = useSetMainPhoto();
  const isFull = profile.photos.length >= profile.photo_limit;

  const handleFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      await uploadPhoto(file, setProgress);
    } catch (err) {
      setError(errorText(t, err));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
      void queryClient.invalidateQueries({ queryKey: ownProfileKey });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
    }
  };

  return (
    <section className="card mb-4" aria-labelledby="photos-title">
      <div className="card-body">
        <div className="d-flex justify-content-between align-items-baseline">
          <h2 className="h5" id="photos-title">
            {t('profile.photos.title')}
          </h2>
          <span className="small text-body-secondary" data-testid="photo-count">
            {t('profile.photos.count', { used: profile.photos.length, max: profile.photo_limit })}
          </span>
        </div>
        <div className="row g-2 mb-3" data-testid="own-photos">
          {profile.photos.map((photo) => (
            <div className="col-6 col-md-4" key={photo.id}>
              <figure className="position-relative mb-0 border rounded overflow-hidden" data-testid="own-photo">
                <img
                  src={photo.urls.thumb}
                  alt={t('profile.photos.alt')}
                  className="w-100"
                  style={{ aspectRatio: '4 / 5', objectFit: 'cover' }}
                />
                {photo.is_main && (
                  <span className="badge text-bg-primary position-absolute top-0 start-0 m-2">{t('profile.photos.main')}</span>
                )}
                {photo.status === 'pending' && (
                  <span className="badge text-bg-warning position-absolute top-0 end-0 m-2">{t('profile.photos.pending')}</span>
                )}
                <figcaption className="d-flex gap-1 p-2 bg-white">
                  {!photo.is_main && (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-dark"
                      onClick={() => setMain.mutate(photo.id)}
                      data-testid="make-main"
                    >
                      {t('profile.photos.makeMain')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger ms-auto"
                    onClick={() => remove.mutate(photo.id)}
                    aria-label={t('profile.photos.delete')}
                  >
                    {t('profile.photos.delete')}
                  </button>
                </figcaption>
              </figure>
            </div>
          ))}
        </div>
        {error && (
          <div className="alert alert-danger" role="alert" data-testid="photo-error">
            {error}
          </div>
        )}
        {progress !== null && (
          <div
            className="progress mb-3"
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
        {isFull ? (
          <p className="mb-0 text-body-secondary" data-testid="photo-limit">
            {t('profile.photos.full', { count: profile.photo_limit })}
          </p>
        ) : (
          <>
            <label className="form-label" htmlFor="photo-upload">
              {t('profile.photos.add')}
            </label>
            <input
              ref={input}
              id="photo-upload"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="form-control"
              disabled={progress !== null}
              onChange={(event) => void handleFile(event.target.files?.[0])}
            />
            <div className="form-text">{t('profile.photos.help')}</div>
          </>
        )}
      </div>
    </section>
  );
}
