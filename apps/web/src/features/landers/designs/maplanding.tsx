import { MIN_AGE } from '@amora/contracts/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { HeartIcon } from '@/components/ui/heart-icon';
import { PhotoPlaceholder } from '@/components/ui/photo-placeholder';
import { LanderFictionalIcon, useLanderSettings } from '../lander-site';
import type { LanderProfile, LanderProps } from '../lander-types';
import { layOutMap, type MapPin, type MapRegionName } from './maplanding-layout';
import europeMap from './maplanding-maps/europe.svg';
import northAmericaMap from './maplanding-maps/north-america.svg';
import oceaniaMap from './maplanding-maps/oceania.svg';
import { MAP_REGIONS } from './maplanding-regions';
import { SignupAction } from './signup-action';
import './maplanding.css';

/** Each region's map: a hashed, cached file of the build (scripts/lander-maps.mjs drew them from shipped geodata). */
const MAP_FILES: Record<MapRegionName, string> = { europe: europeMap, 'north-america': northAmericaMap, oceania: oceaniaMap };

/**
 * Members on a map: a square cut of the visitor's region (a map drawn once from Natural Earth's outlines and
 * shipped with the site; no tiles, nothing from another host) with a pin per member at their city, each a button
 * with their photo and name that opens signup about them; the list beside it names everyone.
 */
export function MaplandingLander({ niche, profiles, canSignUp, onSignup }: LanderProps) {
  const { t } = useTranslation(['landers', 'common']);
  const settings = useLanderSettings();
  const layout = layOutMap(profiles);
  const region = layout ? MAP_REGIONS[layout.region] : null;
  return (
    <main id="main" className="l-maplanding" data-testid="lander-maplanding">
      <div className="l-maplanding-inner">
        <header className="l-maplanding-head">
          <p className="l-maplanding-eyebrow">
            <PinIcon />
            {t(`niche.${niche}.label`)}
          </p>
          <h1 className="l-maplanding-title">{t(`maplanding.title.${niche}`)}</h1>
          <p className="l-maplanding-lead">{t('maplanding.lead')}</p>
        </header>
        {layout && region && (
          <figure className="l-maplanding-figure">
            <div className="l-maplanding-map">
              <img
                className="l-maplanding-land"
                src={MAP_FILES[layout.region]}
                width={region.width}
                height={region.height}
                alt=""
                fetchPriority="high"
                style={{ width: `${layout.map.width}%`, left: `${layout.map.left}%`, top: `${layout.map.top}%` }}
              />
              {/* A thread from each pin to its city, as the pins stand on a phone and on a wider screen. */}
              {(['narrow', 'wide'] as const).map((width) => (
                <svg
                  key={width}
                  className={`l-maplanding-threads is-${width}`}
                  viewBox="0 0 100 100"
                  preserveAspectRatio="none"
                  aria-hidden="true"
                  focusable="false"
                >
                  {layout.pins.map((pin) => (
                    <line
                      key={pin.profile.id}
                      x1={pin.cityX}
                      y1={pin.cityY}
                      x2={width === 'wide' ? pin.wideX : pin.x}
                      y2={width === 'wide' ? pin.wideY : pin.y}
                    />
                  ))}
                </svg>
              ))}
              {layout.pins.map((pin) => (
                <span
                  key={`dot-${pin.profile.id}`}
                  className="l-maplanding-city"
                  style={{ left: `${pin.cityX}%`, top: `${pin.cityY}%` }}
                  aria-hidden="true"
                />
              ))}
              <ul className="l-maplanding-pins">
                {layout.pins.map((pin) => (
                  <li key={pin.profile.id} className="l-maplanding-pin" style={pinStyle(pin)} data-profile-id={pin.profile.id}>
                    <SignupAction
                      canSignUp={canSignUp}
                      onSignup={onSignup}
                      profileId={pin.profile.id}
                      className="l-maplanding-pin-button"
                      testId="map-pin"
                    >
                      <span className="l-maplanding-pin-photo">
                        <Photo profile={pin.profile} size={48} />
                      </span>
                      <span className="l-maplanding-pin-name">
                        {pin.profile.name}
                        <span className="l-maplanding-hidden">
                          , {pin.profile.age}
                          {pin.profile.city ? `, ${pin.profile.city}` : ''}
                        </span>
                      </span>
                      {pin.profile.is_fictional && (
                        <span className="l-maplanding-pin-fictional">
                          <LanderFictionalIcon size={16} />
                        </span>
                      )}
                    </SignupAction>
                  </li>
                ))}
              </ul>
            </div>
            <figcaption className="l-maplanding-caption">{t('maplanding.caption')}</figcaption>
          </figure>
        )}
        <aside className="l-maplanding-side">
          <div className="l-maplanding-actions">
            {!canSignUp && <p className="l-maplanding-closed">{t('common:signup.closed', { site: settings.name })}</p>}
            <SignupAction canSignUp={canSignUp} onSignup={onSignup} className="l-maplanding-cta" testId="lander-cta">
              <HeartIcon size={18} />
              {canSignUp ? t('common:home.ctaSignup') : t('common:home.ctaLogin')}
            </SignupAction>
            <p className="l-maplanding-note">
              {settings.signup_credits > 0 ? `${t('common:home.points.free', { count: settings.signup_credits })} · ` : ''}
              {t('common:home.adultsOnly', { minAge: MIN_AGE })}
            </p>
          </div>
          {profiles.length > 0 && (
            <section aria-labelledby="l-maplanding-list-title">
              <h2 id="l-maplanding-list-title" className="l-maplanding-list-title">
                {t('maplanding.listTitle')}
              </h2>
              <ul className="l-maplanding-list">
                {profiles.map((profile) => (
                  <li key={profile.id} data-profile-id={profile.id}>
                    <SignupAction
                      canSignUp={canSignUp}
                      onSignup={onSignup}
                      profileId={profile.id}
                      className="l-maplanding-row"
                      testId="map-row"
                    >
                      <span className="l-maplanding-row-photo">
                        <Photo profile={profile} size={56} isLazy />
                      </span>
                      <span className="l-maplanding-row-text">
                        <strong>
                          {profile.name}, {profile.age}
                        </strong>
                        {profile.city && <span>{profile.city}</span>}
                      </span>
                      {profile.is_fictional && <LanderFictionalIcon size={20} />}
                      <span className="l-maplanding-row-go" aria-hidden="true">
                        <HeartIcon size={16} isFilled={false} />
                      </span>
                    </SignupAction>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </aside>
      </div>
    </main>
  );
}

/** Where a pin stands: on a phone and, from the md breakpoint up (maplanding.css), on a wider screen. */
function pinStyle(pin: MapPin): CSSProperties {
  return {
    '--l-maplanding-x': `${pin.x}%`,
    '--l-maplanding-y': `${pin.y}%`,
    '--l-maplanding-wx': `${pin.wideX}%`,
    '--l-maplanding-wy': `${pin.wideY}%`,
  } as CSSProperties;
}

function Photo({ profile, size, isLazy = false }: { profile: LanderProfile; size: number; isLazy?: boolean }) {
  if (!profile.photo) return <PhotoPlaceholder />;
  return (
    <img
      src={profile.photo.src}
      srcSet={profile.photo.srcSet}
      sizes={`${size}px`}
      width={size}
      height={size}
      alt=""
      loading={isLazy ? 'lazy' : undefined}
      decoding="async"
    />
  );
}

function PinIcon() {
  return (
    <svg viewBox="0 0 24 24" width={16} height={16} aria-hidden="true" focusable="false">
      <path
        d="M12 2a7 7 0 0 0-7 7c0 5.2 7 13 7 13s7-7.8 7-13a7 7 0 0 0-7-7zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5z"
        fill="currentColor"
      />
    </svg>
  );
}
