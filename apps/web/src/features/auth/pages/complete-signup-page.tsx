import { GENDERS } from '@amora/contracts/core';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { useToast } from '@/components/ui/toast';
import { errorField, errorText } from '@/lib/error-text';
import { currentPosition, geocode, useGeolocationPermission } from '@/shared/geo/geolocation';
import { useUser } from '@/shared/session/user';
import { useRegions } from '@/shared/site/api/get-regions';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { useLocale, useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { resendActivation } from '../api/account';
import { useCompleteSignup } from '../api/complete-signup';

type Field = 'gender' | 'looking_for' | 'country' | 'region' | 'city';
type Errors = Partial<Record<Field, string>>;

/** The server's field (looking_for.0, city_id) as the form's field. */
function formField(field: string | undefined): Field | undefined {
  if (!field) return undefined;
  const name = field.split('.')[0];
  if (name === 'city_id') return 'city';
  return (['gender', 'looking_for', 'country', 'region', 'city'] as const).find((f) => f === name);
}

/**
 * After signup (spec §2 complete-signup; no top menu here): the welcome credits, the activation email, and the
 * questions a dating member expects: their gender, whom they want to meet and where they live. The place comes
 * from the browser's position when the member asks for it (never on page load), turned into a city by the
 * server, or from the country, region and city they pick. The answers set the search defaults and the
 * suggestions; then on to the signup matches.
 */
export function CompleteSignupPage() {
  const { t } = useTranslation();
  usePageTitle(t('completeSignup.title'));
  const user = useUser();
  const settings = useSettings();
  const locale = useLocale();
  const localize = useLocalePath();
  const navigate = useNavigate();
  const save = useCompleteSignup();
  const toast = useToast();
  const permission = useGeolocationPermission();
  const [resent, setResent] = useState<string | null>(null);
  const [gender, setGender] = useState('');
  const [lookingFor, setLookingFor] = useState<string[]>([]);
  const [country, setCountry] = useState(() => user?.profile.country ?? settings.countries[0] ?? '');
  const [region, setRegion] = useState('');
  const [city, setCity] = useState('');
  /** The geocoder's city, while the place is the one it found. */
  const [cityId, setCityId] = useState<number | null>(null);
  const [place, setPlace] = useState<string | null>(null);
  const [isLocating, setIsLocating] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const regions = useRegions(country);
  if (!user) return <Navigate to={localize('/')} replace />;

  const handleResend = () =>
    resendActivation().then(
      () => setResent(t('activation.resent')),
      (error: unknown) => setResent(errorText(t, error)),
    );

  const handleLocate = () => {
    setIsLocating(true);
    setPlace(t('profile.location.locating'));
    currentPosition()
      .then(
        (position) =>
          geocode(position.coords.latitude, position.coords.longitude).then(
            (found) => {
              if (!settings.countries.includes(found.country)) {
                setPlace(t('completeSignup.location.notServed'));
                return;
              }
              setCountry(found.country);
              setRegion(found.region ?? '');
              setCity(found.city);
              setCityId(found.city_id);
              setErrors((e) => ({ ...e, country: undefined, region: undefined, city: undefined }));
              setPlace(t('profile.location.found', { city: found.city, country: countryName(found.country, locale) }));
            },
            (error: unknown) => setPlace(errorText(t, error)),
          ),
        () => setPlace(t('profile.location.denied')),
      )
      .finally(() => setIsLocating(false));
  };

  const focusFirstError = () => requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const found: Errors = {};
    if (!gender) found.gender = t('completeSignup.errors.gender');
    if (lookingFor.length === 0) found.looking_for = t('completeSignup.errors.lookingFor');
    if (!country) found.country = t('completeSignup.errors.country');
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstError();
      return;
    }
    save.mutate(
      {
        gender: gender as (typeof GENDERS)[number],
        looking_for: lookingFor as (typeof GENDERS)[number][],
        country: country as never,
        region: region || null,
        city: city.trim() || null,
        city_id: cityId,
      },
      {
        onSuccess: () => {
          toast.show(t('profile.saved'));
          navigate(localize('/signup-matches'));
        },
        onError: (error) => {
          const field = formField(errorField(error));
          if (field) {
            setErrors({ [field]: errorText(t, error) });
            focusFirstError();
          } else {
            setFormError(errorText(t, error));
          }
        },
      },
    );
  };

  const toggleLookingFor = (value: string) => {
    setLookingFor((list) => (list.includes(value) ? list.filter((g) => g !== value) : [...list, value]));
    setErrors((e) => ({ ...e, looking_for: undefined }));
  };
  const canLocate = permission !== 'unsupported' && permission !== 'denied';

  return (
    <main id="main" className="container py-4 py-md-5" style={{ maxWidth: 620 }} data-testid="complete-signup">
      <div className="text-center">
        <h1 className="h3">{t('completeSignup.title')}</h1>
        <p className="lead">{t('completeSignup.welcome', { name: user.profile.name, site: settings.name, count: user.credits })}</p>
      </div>
      {user.status === 'not_confirmed' && (
        <div className="card my-4">
          <div className="card-body">
            <h2 className="h5">{t('activation.title')}</h2>
            <p>{t('activation.reminder', { email: user.email })}</p>
            <Button variant="outline-dark" size="sm" onClick={handleResend}>
              {t('activation.resend')}
            </Button>
            {resent && (
              <p className="mt-2 mb-0" role="status">
                {resent}
              </p>
            )}
          </div>
        </div>
      )}
      <form
        ref={formRef}
        className="card shadow-sm border-0 my-4"
        noValidate
        onSubmit={handleSubmit}
        aria-labelledby="complete-signup-questions"
        data-testid="complete-signup-form"
      >
        <div className="card-body p-3 p-md-4">
          <h2 className="h5" id="complete-signup-questions">
            {t('completeSignup.questions')}
          </h2>
          <p className="text-body-secondary">{t('completeSignup.intro')}</p>

          <fieldset className="mb-4" aria-describedby={errors.gender ? 'cs-gender-error' : undefined}>
            <legend className="form-label fs-6 fw-semibold">
              {t('completeSignup.gender')}
              <span className="text-danger ms-1" aria-hidden="true">
                *
              </span>
            </legend>
            <div className="d-flex flex-wrap gap-2">
              {GENDERS.map((g, i) => (
                <span key={g}>
                  <input
                    type="radio"
                    className="btn-check"
                    name="gender"
                    id={`cs-gender-${g}`}
                    value={g}
                    checked={gender === g}
                    aria-invalid={i === 0 && errors.gender ? true : undefined}
                    onChange={() => {
                      setGender(g);
                      setErrors((e) => ({ ...e, gender: undefined }));
                    }}
                  />
                  <label className="btn btn-outline-primary rounded-pill px-3 py-2" htmlFor={`cs-gender-${g}`}>
                    {t(`profile.attributes.gender.${g}`)}
                  </label>
                </span>
              ))}
            </div>
            {errors.gender && (
              <div id="cs-gender-error" className="invalid-feedback d-block">
                {errors.gender}
              </div>
            )}
          </fieldset>

          <fieldset
            className="mb-4"
            aria-describedby={['cs-looking-help', errors.looking_for ? 'cs-looking-error' : null].filter(Boolean).join(' ')}
          >
            <legend className="form-label fs-6 fw-semibold">
              {t('completeSignup.lookingFor.label')}
              <span className="text-danger ms-1" aria-hidden="true">
                *
              </span>
            </legend>
            <div className="d-flex flex-wrap gap-2">
              {GENDERS.map((g, i) => (
                <span key={g}>
                  <input
                    type="checkbox"
                    className="btn-check"
                    id={`cs-looking-${g}`}
                    value={g}
                    checked={lookingFor.includes(g)}
                    aria-invalid={i === 0 && errors.looking_for ? true : undefined}
                    onChange={() => toggleLookingFor(g)}
                  />
                  <label className="btn btn-outline-primary rounded-pill px-3 py-2" htmlFor={`cs-looking-${g}`}>
                    {t(`completeSignup.lookingFor.${g}`)}
                  </label>
                </span>
              ))}
            </div>
            <div id="cs-looking-help" className="form-text">
              {t('completeSignup.lookingFor.help')}
            </div>
            {errors.looking_for && (
              <div id="cs-looking-error" className="invalid-feedback d-block">
                {errors.looking_for}
              </div>
            )}
          </fieldset>

          <fieldset className="mb-3">
            <legend className="form-label fs-6 fw-semibold">{t('profile.location.title')}</legend>
            <p className="small text-body-secondary mb-2">{t('profile.location.privacy')}</p>
            {canLocate && (
              <Button variant="outline-dark" className="mb-2" onClick={handleLocate} isLoading={isLocating} testId="use-location">
                {t('profile.location.useMine')}
              </Button>
            )}
            <p className="small mb-3" role="status" data-testid="location-status">
              {place ?? (canLocate ? '' : t(`profile.location.permission.${permission}`))}
            </p>
            <div className="row g-2">
              <div className="col-md-4">
                <FormField label={t('profile.location.country')} error={errors.country} isRequired className="mb-0">
                  <select
                    id="cs-country"
                    className="form-select"
                    value={country}
                    onChange={(event) => {
                      setCountry(event.target.value);
                      setRegion('');
                      setCityId(null);
                      setErrors((e) => ({ ...e, country: undefined, region: undefined }));
                    }}
                  >
                    {settings.countries.map((c) => (
                      <option key={c} value={c}>
                        {countryName(c, locale)}
                      </option>
                    ))}
                  </select>
                </FormField>
              </div>
              <div className="col-md-4">
                <FormField label={t('profile.location.region')} error={errors.region} className="mb-0">
                  <select
                    id="cs-region"
                    className="form-select"
                    value={region}
                    onChange={(event) => {
                      setRegion(event.target.value);
                      setCityId(null);
                      setErrors((e) => ({ ...e, region: undefined }));
                    }}
                  >
                    <option value="">—</option>
                    {regions.data?.map((r) => (
                      <option key={r.code} value={r.code}>
                        {r.name}
                      </option>
                    ))}
                  </select>
                </FormField>
              </div>
              <div className="col-md-4">
                <FormField label={t('profile.location.city')} error={errors.city} className="mb-0">
                  <input
                    id="cs-city"
                    className="form-control"
                    value={city}
                    maxLength={100}
                    autoComplete="address-level2"
                    onChange={(event) => {
                      setCity(event.target.value);
                      setCityId(null);
                      setErrors((e) => ({ ...e, city: undefined }));
                    }}
                  />
                </FormField>
              </div>
            </div>
          </fieldset>

          {formError && (
            <div className="alert alert-danger" role="alert">
              {formError}
            </div>
          )}
          <Button type="submit" size="lg" isBlock className="mt-2" isLoading={save.isPending} testId="complete-signup-continue">
            {t('completeSignup.continue')}
          </Button>
        </div>
      </form>
    </main>
  );
}

export { CompleteSignupPage as Component };
