import { GEOLOCATION_MAX_AGE_MS, type OwnProfile } from '@amora/contracts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/lib/error-text';
import { useGeolocationPermission } from '@/shared/geo/geolocation';
import { useRegions } from '@/shared/site/api/get-regions';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { useLocale } from '@/shared/site/use-locale';
import { geocode, useUpdateProfile } from '../api/profile';

/** Country, region and city; "use my location" fills them from the browser's position (a cached one up to 1 h old). */
export function LocationPicker({ profile }: { profile: OwnProfile }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const locale = useLocale();
  const update = useUpdateProfile();
  const permission = useGeolocationPermission();
  const [country, setCountry] = useState(profile.country);
  const [region, setRegion] = useState(profile.region ?? '');
  const [city, setCity] = useState(profile.city ?? '');
  const [message, setMessage] = useState<string | null>(null);
  const regions = useRegions(country);

  useEffect(() => {
    setCountry(profile.country);
    setRegion(profile.region ?? '');
    setCity(profile.city ?? '');
  }, [profile.country, profile.region, profile.city]);

  const handleLocate = () => {
    setMessage(t('profile.location.locating'));
    navigator.geolocation.getCurrentPosition(
      (position) => {
        geocode(position.coords.latitude, position.coords.longitude).then(
          (place) =>
            update.mutate(
              { city_id: place.city_id },
              {
                onSuccess: () => setMessage(t('profile.location.found', { city: place.city, country: countryName(place.country, locale) })),
              },
            ),
          (error: unknown) => setMessage(errorText(t, error)),
        );
      },
      () => setMessage(t('profile.location.denied')),
      { maximumAge: GEOLOCATION_MAX_AGE_MS, timeout: 15_000, enableHighAccuracy: false },
    );
  };

  return (
    <section className="card mb-4" aria-labelledby="location-title">
      <div className="card-body">
        <h2 className="h5" id="location-title">
          {t('profile.location.title')}
        </h2>
        <p className="small text-body-secondary">{t('profile.location.privacy')}</p>
        <form
          className="row g-3"
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate(
              { country: country as never, region: region || null, city: city || null },
              { onSuccess: () => setMessage(t('profile.saved')) },
            );
          }}
        >
          <div className="col-md-4">
            <label className="form-label" htmlFor="profile-country">
              {t('profile.location.country')}
            </label>
            <select
              id="profile-country"
              className="form-select"
              value={country}
              onChange={(event) => {
                setCountry(event.target.value);
                setRegion('');
              }}
            >
              {settings.countries.map((c) => (
                <option key={c} value={c}>
                  {countryName(c, locale)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-4">
            <label className="form-label" htmlFor="profile-region">
              {t('profile.location.region')}
            </label>
            <select id="profile-region" className="form-select" value={region} onChange={(event) => setRegion(event.target.value)}>
              <option value="">—</option>
              {regions.data?.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-4">
            <label className="form-label" htmlFor="profile-city">
              {t('profile.location.city')}
            </label>
            <input
              id="profile-city"
              className="form-control"
              value={city}
              maxLength={100}
              onChange={(event) => setCity(event.target.value)}
            />
          </div>
          <div className="col-12 d-flex flex-wrap gap-2 align-items-center">
            <button type="submit" className="btn btn-outline-primary" disabled={update.isPending}>
              {t('profile.location.save')}
            </button>
            {permission !== 'unsupported' && permission !== 'denied' && (
              <button type="button" className="btn btn-outline-dark" onClick={handleLocate} data-testid="use-location">
                {t('profile.location.useMine')}
              </button>
            )}
            <span className="small text-body-secondary" data-testid="geolocation-state">
              {t(`profile.location.permission.${permission}`)}
            </span>
          </div>
          {message && (
            <p className="col-12 mb-0" role="status">
              {message}
            </p>
          )}
        </form>
      </div>
    </section>
  );
}
