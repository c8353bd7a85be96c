import { GENDERS, type OwnProfile, PROFILE_ATTRIBUTES, type ProfileUpdate } from '@amora/contracts/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { useUser } from '@/shared/session/user';
import { useInterests } from '@/shared/site/api/get-interests';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useOwnProfile, useUpdateProfile } from '../api/profile';
import { LocationPicker } from '../components/location-picker';
import { PhotoManager } from '../components/photo-manager';

type Attribute = keyof typeof PROFILE_ATTRIBUTES;

function DetailsForm({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useUpdateProfile();
  const toast = useToast();
  const [about, setAbout] = useState(profile.about);
  const [values, setValues] = useState<Record<Attribute, string>>(() => ({
    gender: profile.gender ?? '',
    sexuality: profile.sexuality ?? '',
    hair_colour: profile.hair_colour ?? '',
    eye_colour: profile.eye_colour ?? '',
    body_type: profile.body_type ?? '',
    relationship_status: profile.relationship_status ?? '',
  }));
  const [interests, setInterests] = useState<string[]>(profile.interests);
  const [lookingFor, setLookingFor] = useState<string[]>(profile.looking_for ?? []);
  const interestChoices = useInterests();
  const fields = (Object.keys(PROFILE_ATTRIBUTES) as Attribute[]).filter((f) => settings.visible_profile_fields.includes(f));
  const hasNotes = settings.visible_profile_notes.includes('about');

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    // Whom the member wants to meet (asked at /complete-signup): the search defaults and suggestions follow it.
    const body: Record<string, unknown> = { interests, looking_for: lookingFor.length > 0 ? lookingFor : null };
    if (hasNotes) body.about = about;
    for (const f of fields) body[f] = values[f] || null;
    update.mutate(body as ProfileUpdate, { onSuccess: () => toast.show({ message: t('profile.saved'), testId: 'profile-saved' }) });
  };

  return (
    <section className="card mb-4" aria-labelledby="details-title">
      <form className="card-body" onSubmit={handleSubmit} data-testid="profile-form">
        <h2 className="h5" id="details-title">
          {t('profile.details.title')}
        </h2>
        {hasNotes && (
          <div className="mb-3">
            <label className="form-label" htmlFor="profile-about">
              {t('profile.details.about')}
            </label>
            <textarea
              id="profile-about"
              className="form-control"
              rows={4}
              maxLength={2000}
              value={about}
              onChange={(event) => setAbout(event.target.value)}
            />
          </div>
        )}
        <div className="row g-3 mb-3">
          {fields.map((field) => (
            <div className="col-md-4" key={field}>
              <label className="form-label" htmlFor={`profile-${field}`}>
                {t(`profile.attributes.${field}.label`)}
              </label>
              <select
                id={`profile-${field}`}
                className="form-select"
                value={values[field]}
                onChange={(event) => setValues((v) => ({ ...v, [field]: event.target.value }))}
              >
                <option value="">{t('profile.details.notSaying')}</option>
                {PROFILE_ATTRIBUTES[field].map((option) => (
                  <option key={option} value={option}>
                    {t(`profile.attributes.${field}.${option}`)}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
        <fieldset className="mb-3" aria-describedby="profile-looking-for-help">
          <legend className="form-label fs-6">{t('completeSignup.lookingFor.label')}</legend>
          <div className="d-flex flex-wrap gap-2">
            {GENDERS.map((g) => {
              const isChecked = lookingFor.includes(g);
              return (
                <div key={g}>
                  <input
                    type="checkbox"
                    className="btn-check"
                    id={`profile-looking-for-${g}`}
                    checked={isChecked}
                    onChange={() => setLookingFor((list) => (isChecked ? list.filter((x) => x !== g) : [...list, g]))}
                  />
                  <label className="btn btn-sm btn-outline-dark rounded-pill" htmlFor={`profile-looking-for-${g}`}>
                    {t(`completeSignup.lookingFor.${g}`)}
                  </label>
                </div>
              );
            })}
          </div>
          <div id="profile-looking-for-help" className="form-text">
            {t('completeSignup.lookingFor.help')}
          </div>
        </fieldset>
        {settings.visible_profile_fields.includes('interests') && (
          <fieldset className="mb-3">
            <legend className="form-label fs-6">{t('profile.details.interests')}</legend>
            <div className="d-flex flex-wrap gap-2">
              {interestChoices.data?.map((interest) => {
                const isChecked = interests.includes(interest);
                return (
                  <div key={interest}>
                    <input
                      type="checkbox"
                      className="btn-check"
                      id={`interest-${interest}`}
                      checked={isChecked}
                      onChange={() => setInterests((list) => (isChecked ? list.filter((i) => i !== interest) : [...list, interest]))}
                    />
                    <label className="btn btn-sm btn-outline-dark rounded-pill" htmlFor={`interest-${interest}`}>
                      {t(`interests.${interest}`)}
                    </label>
                  </div>
                );
              })}
            </div>
          </fieldset>
        )}
        <div className="d-flex align-items-center gap-3">
          <Button type="submit" isLoading={update.isPending} testId="profile-save">
            {t('profile.save')}
          </Button>
          {update.error && (
            <span className="text-danger" role="alert">
              {errorText(t, update.error)}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

function InvisibleToggle({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const toast = useToast();
  return (
    <section className="card mb-4" aria-labelledby="invisible-title">
      <div className="card-body">
        <h2 className="h5" id="invisible-title">
          {t('profile.invisible.title')}
        </h2>
        <div className="form-check form-switch">
          <input
            className="form-check-input"
            type="checkbox"
            role="switch"
            id="invisible-mode"
            checked={profile.is_invisible}
            aria-checked={profile.is_invisible}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate(
                { is_invisible: event.target.checked },
                {
                  onSuccess: () => toast.show(t('profile.saved')),
                  onError: (err) => toast.show({ message: errorText(t, err), variant: 'danger' }),
                },
              )
            }
          />
          <label className="form-check-label" htmlFor="invisible-mode">
            {t('profile.invisible.label')}
          </label>
        </div>
        <p className="small text-body-secondary mb-0 mt-2">{t('profile.invisible.help')}</p>
      </div>
    </section>
  );
}

/** The page's cards in outline while the profile loads: the photo grid, then a form. */
function OwnProfileSkeleton() {
  const { t } = useTranslation();
  return (
    <SkeletonRegion label={t('common.loading')} className="d-grid gap-4">
      <div className="card">
        <div className="card-body">
          <Skeleton width="30%" height="1.5rem" className="mb-3" />
          <div className="photo-grid">
            <Skeleton shape="rect" className="photo-skeleton" />
            <Skeleton shape="rect" className="photo-skeleton" />
          </div>
        </div>
      </div>
      <div className="card">
        <div className="card-body">
          <Skeleton width="40%" height="1.5rem" className="mb-3" />
          <SkeletonText lines={4} />
        </div>
      </div>
    </SkeletonRegion>
  );
}

/** /profile: what a member shows of themselves. */
export function OwnProfilePage() {
  const { t } = useTranslation();
  usePageTitle(t('profile.title'));
  const user = useUser();
  const localize = useLocalePath();
  const profile = useOwnProfile();
  if (!user) return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(localize('/profile'))}`} replace />;
  return (
    <main id="main" className="container py-4" style={{ maxWidth: 900 }}>
      <div className="d-flex justify-content-between align-items-baseline mb-3">
        <h1 className="h3 mb-0">{t('profile.title')}</h1>
        <LocalLink to={`/members/${user.profile.id}`}>{t('profile.viewAsOthers')}</LocalLink>
      </div>
      {profile.isError && <div className="alert alert-danger">{t('errors.generic')}</div>}
      {profile.isPending && <OwnProfileSkeleton />}
      {profile.data && (
        <>
          <PhotoManager profile={profile.data} />
          <DetailsForm key={profile.data.id} profile={profile.data} />
          <LocationPicker profile={profile.data} />
          <InvisibleToggle profile={profile.data} />
        </>
      )}
    </main>
  );
}

export { OwnProfilePage as Component };
