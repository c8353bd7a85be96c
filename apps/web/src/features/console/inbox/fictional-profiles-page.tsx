import { type FictionalProfile, GENDERS, INTERESTS, SEXUALITIES, TARGET_COUNTRIES } from '@amora/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { countryName } from '@/shared/site/country-name';
import { consoleErrorText } from '../console-error';
import { FictionalBadge } from '../shell/fictional-badge';
import { useConsoleTitle } from '../shell/use-console-title';
import { type FictionalProfileBody, useFictionalProfiles, useSaveFictionalProfile } from './inbox-api';

const positive = (value: string | null): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

type Sites = { id: number; name: string }[];

/** Creating (no `profile`) or editing a fictional profile: the fields a member's profile has. */
function ProfileForm({ profile, sites, onDone }: { profile: FictionalProfile | null; sites: Sites; onDone: () => void }) {
  const { t, i18n } = useTranslation(['console', 'common']);
  const ids = useId();
  const save = useSaveFictionalProfile();
  const pending = save.create.isPending || save.edit.isPending;
  const error = save.create.error ?? save.edit.error;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const body = {
      name: text('name'),
      birth_date: text('birth_date'),
      gender: text('gender') as FictionalProfileBody['gender'],
      sexuality: (text('sexuality') || null) as FictionalProfileBody['sexuality'],
      country: text('country') as FictionalProfileBody['country'],
      region: text('region') || null,
      city: text('city') || null,
      about: text('about'),
      interests: data.getAll('interests').map(String) as FictionalProfileBody['interests'],
    };
    if (profile) save.edit.mutate({ id: profile.id, body }, { onSuccess: onDone });
    else save.create.mutate({ ...body, site_id: Number(text('site_id')) }, { onSuccess: onDone });
  };
  const field = (name: string) => `${ids}-${name}`;

  return (
    <form
      className="card card-body mb-3"
      onSubmit={submit}
      data-testid="fictional-form"
      aria-label={profile ? t('fictional.edit') : t('fictional.create')}
    >
      <h2 className="h5">{profile ? t('fictional.editTitle', { name: profile.name }) : t('fictional.create')}</h2>
      <p className="small text-body-secondary">{t('fictional.always')}</p>
      {error && (
        <div className="alert alert-danger py-2" role="alert">
          {consoleErrorText(t, error)}
        </div>
      )}
      <div className="row g-3">
        {!profile && (
          <div className="col-md-4">
            <label className="form-label" htmlFor={field('site')}>
              {t('fictional.site')}
            </label>
            <select id={field('site')} name="site_id" className="form-select" required>
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('name')}>
            {t('fictional.name')}
          </label>
          <input
            id={field('name')}
            name="name"
            className="form-control"
            required
            minLength={2}
            maxLength={40}
            defaultValue={profile?.name}
          />
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('birth')}>
            {t('fictional.birthDate')}
          </label>
          <input id={field('birth')} name="birth_date" type="date" className="form-control" required defaultValue={profile?.birth_date} />
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('gender')}>
            {t('fictional.gender')}
          </label>
          <select id={field('gender')} name="gender" className="form-select" required defaultValue={profile?.gender ?? GENDERS[0]}>
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`common:profile.attributes.gender.${g}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('sexuality')}>
            {t('fictional.sexuality')}
          </label>
          <select id={field('sexuality')} name="sexuality" className="form-select" defaultValue={profile?.sexuality ?? ''}>
            <option value="">–</option>
            {SEXUALITIES.map((s) => (
              <option key={s} value={s}>
                {t(`common:profile.attributes.sexuality.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('country')}>
            {t('fictional.country')}
          </label>
          <select id={field('country')} name="country" className="form-select" required defaultValue={profile?.country ?? 'NL'}>
            {TARGET_COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {countryName(c, i18n.language)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('region')}>
            {t('fictional.region')}
          </label>
          <input id={field('region')} name="region" className="form-control" maxLength={20} defaultValue={profile?.region ?? ''} />
        </div>
        <div className="col-md-4">
          <label className="form-label" htmlFor={field('city')}>
            {t('fictional.city')}
          </label>
          <input id={field('city')} name="city" className="form-control" maxLength={100} defaultValue={profile?.city ?? ''} />
        </div>
        <div className="col-12">
          <label className="form-label" htmlFor={field('about')}>
            {t('fictional.about')}
          </label>
          <textarea id={field('about')} name="about" className="form-control" rows={4} maxLength={2000} defaultValue={profile?.about} />
        </div>
        <fieldset className="col-12">
          <legend className="form-label fs-6">{t('fictional.interests')}</legend>
          <div className="d-flex flex-wrap gap-3">
            {INTERESTS.map((interest) => (
              <div className="form-check" key={interest}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  name="interests"
                  value={interest}
                  id={field(`i-${interest}`)}
                  defaultChecked={profile?.interests.includes(interest)}
                />
                <label className="form-check-label" htmlFor={field(`i-${interest}`)}>
                  {t(`common:interests.${interest}`)}
                </label>
              </div>
            ))}
          </div>
        </fieldset>
      </div>
      {profile && (
        <div className="mt-3">
          <label className="form-label" htmlFor={field('photo')}>
            {t('fictional.photo')}
          </label>
          <div className="d-flex align-items-center gap-3">
            {profile.photo_url ? <img src={profile.photo_url} alt="" width={56} height={56} className="rounded object-fit-cover" /> : null}
            <input
              id={field('photo')}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              className="form-control"
              disabled={save.photo.isPending}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) save.photo.mutate({ id: profile.id, file });
              }}
              data-testid="fictional-photo"
            />
          </div>
          {save.photo.error && (
            <div className="alert alert-danger py-2 mt-2" role="alert">
              {consoleErrorText(t, save.photo.error)}
            </div>
          )}
        </div>
      )}
      {!profile && <p className="small text-body-secondary mt-3 mb-2">{t('fictional.photoLater')}</p>}
      <div className="d-flex gap-2 mt-3">
        <Button type="submit" isLoading={pending} testId="fictional-save">
          {t('fictional.save')}
        </Button>
        <Button variant="outline-secondary" onClick={onDone} testId="fictional-cancel">
          {t('fictional.cancel')}
        </Button>
      </div>
    </form>
  );
}

/** The fictional profiles per site: the list, a new one, an edit, retiring one and bringing it back. */
export function FictionalProfilesPage() {
  const { t, i18n } = useTranslation(['console', 'common']);
  const [params, setParams] = useSearchParams();
  const filters = { page: positive(params.get('page')) ?? 1, site: positive(params.get('site')) };
  const list = useFictionalProfiles(filters);
  const save = useSaveFictionalProfile();
  const [editing, setEditing] = useState<FictionalProfile | 'new' | null>(null);
  const ids = useId();
  useConsoleTitle(t('fictional.title'));
  const go = (next: { page: number; site?: number }) => {
    const values: Record<string, string> = {};
    if (next.page > 1) values.page = String(next.page);
    if (next.site) values.site = String(next.site);
    setParams(values);
  };

  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('fictional.title')}</h1>
        {list.data && (
          <div>
            <label className="form-label small mb-1" htmlFor={`${ids}-site`}>
              {t('fictional.site')}
            </label>
            <select
              id={`${ids}-site`}
              className="form-select form-select-sm"
              value={filters.site ?? ''}
              onChange={(event) => go({ page: 1, site: positive(event.target.value) })}
            >
              <option value="">{t('fictional.allSites')}</option>
              {list.data.sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <Button onClick={() => setEditing('new')} testId="fictional-new">
          {t('fictional.create')}
        </Button>
      </div>
      <p className="text-body-secondary">{t('fictional.intro')}</p>
      {editing && list.data && (
        <ProfileForm
          key={editing === 'new' ? 'new' : editing.id}
          profile={editing === 'new' ? null : editing}
          sites={list.data.sites}
          onDone={() => setEditing(null)}
        />
      )}
      {list.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {list.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, list.error)}
        </div>
      )}
      {save.edit.error && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, save.edit.error)}
        </div>
      )}
      {list.data && list.data.profiles.length === 0 && <p className="text-body-secondary">{t('fictional.empty')}</p>}
      {list.data && list.data.profiles.length > 0 && (
        <>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="fictional-table">
              <caption className="visually-hidden">{t('fictional.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('fictional.name')}</th>
                  <th scope="col">{t('fictional.site')}</th>
                  <th scope="col">{t('fictional.place')}</th>
                  <th scope="col">{t('fictional.status')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('fictional.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.profiles.map((profile) => (
                  <tr key={profile.id} data-testid={`fictional-${profile.id}`}>
                    <td data-profile-id={profile.id}>
                      {profile.photo_url ? (
                        <img src={profile.photo_url} alt="" width={32} height={32} className="rounded object-fit-cover me-2" />
                      ) : null}
                      {profile.name}, {profile.age} <FictionalBadge />
                    </td>
                    <td className="small">{profile.site.name}</td>
                    <td className="small">{[profile.city, countryName(profile.country, i18n.language)].filter(Boolean).join(', ')}</td>
                    <td className="small">
                      {profile.status === 'active' ? t('fictional.statuses.active') : t('fictional.statuses.retired')}
                    </td>
                    <td className="text-end text-nowrap">
                      <Button
                        variant="outline-secondary"
                        size="sm"
                        onClick={() => setEditing(profile)}
                        testId={`fictional-edit-${profile.id}`}
                      >
                        {t('fictional.edit')}
                      </Button>{' '}
                      <Button
                        variant="outline-secondary"
                        size="sm"
                        onClick={() =>
                          save.edit.mutate({ id: profile.id, body: { status: profile.status === 'active' ? 'retired' : 'active' } })
                        }
                        testId={`fictional-status-${profile.id}`}
                      >
                        {profile.status === 'active' ? t('fictional.retire') : t('fictional.restore')}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('fictional.pages')}>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page <= 1}
              onClick={() => go({ ...filters, page: filters.page - 1 })}
            >
              {t('inbox.previous')}
            </Button>
            <span className="small">{t('inbox.page', { page: list.data.page, pages: list.data.pages })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page >= list.data.pages}
              onClick={() => go({ ...filters, page: filters.page + 1 })}
            >
              {t('inbox.next')}
            </Button>
            <span className="text-body-secondary small ms-auto">{t('fictional.total', { count: list.data.total })}</span>
          </nav>
        </>
      )}
    </>
  );
}

export { FictionalProfilesPage as Component };
