import type { Locale, Settings } from '@amora/contracts/core';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactElement, Suspense } from 'react';
import { LanderSiteProvider } from '@/features/landers/lander-site';
import type { LanderProfile } from '@/features/landers/lander-types';
import { i18next } from '@/lib/i18n';
import { settingsFixture } from './fixtures';

const NAMES = ['Sanne', 'Lotte', 'Femke', 'Anouk', 'Eva', 'Iris', 'Lien', 'Elise', 'Manon', 'Hanne', 'Chloé', 'Léa', 'Giulia', 'Sofia'];
const CITIES = ['Amsterdam', 'Rotterdam', 'Utrecht', 'Groningen', null];

/**
 * The profiles a lander design receives (as the lander's data answers them): `count` of them, every third one
 * fictional, the fourth without a photo, the fifth without a city.
 */
export function landerProfiles(count: number): LanderProfile[] {
  return Array.from({ length: count }, (_, index) => {
    const id = 101 + index;
    return {
      id,
      name: NAMES[index % NAMES.length],
      age: 24 + index,
      city: CITIES[index % CITIES.length] ?? null,
      country: 'NL',
      position: { lat: 52.37, lon: 4.89 },
      photo:
        index === 3
          ? null
          : { src: `/photos/${id}-480.webp`, srcSet: `/photos/${id}-240.webp 240w, /photos/${id}-480.webp 480w`, width: 480, height: 600 },
      is_fictional: index % 3 === 2,
    };
  });
}

/**
 * A lander design as its own small page renders it: inside the lander site (settings, language), with the
 * landers' and common catalogues of that language loaded; no router, no query cache.
 */
export async function renderLander(
  ui: ReactElement,
  { settings = settingsFixture(), locale = 'en' }: { settings?: Settings; locale?: Locale } = {},
) {
  await i18next.changeLanguage(locale);
  await i18next.loadNamespaces(['landers', 'common']);
  const user = userEvent.setup();
  const view = render(
    <LanderSiteProvider value={{ settings, locale }}>
      <Suspense fallback={null}>{ui}</Suspense>
    </LanderSiteProvider>,
  );
  return { ...view, user };
}
