import { useSettings } from '@/shared/site/api/get-settings';

/**
 * The site's icon for its own (fictional) profiles, named by the site's word for them (`isDecorative` beside that
 * word written out, which names it already). Every profile of the site's shown anywhere (a card, a row, a name, a
 * message) carries it inside the element that has the profile's `data-profile-id`; `data-fictional-mark` is how
 * e2e/tests/fictional-label.spec.ts finds it on every page that shows profiles.
 */
export function FictionalIcon({ size, testId, isDecorative = false }: { size: number; testId?: string; isDecorative?: boolean }) {
  const settings = useSettings();
  return (
    <img
      src={settings.fictional_icon}
      alt={isDecorative ? '' : settings.fictional_singular}
      title={settings.fictional_singular}
      width={size}
      height={size}
      data-testid={testId}
      data-fictional-mark=""
    />
  );
}
