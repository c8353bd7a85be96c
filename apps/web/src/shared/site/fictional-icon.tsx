import { useSettings } from '@/shared/site/api/get-settings';

/** The site's icon for its own (fictional) profiles, named by the site's word for them. */
export function FictionalIcon({ size, testId }: { size: number; testId?: string }) {
  const settings = useSettings();
  return (
    <img
      src={settings.fictional_icon}
      alt={settings.fictional_singular}
      title={settings.fictional_singular}
      width={size}
      height={size}
      data-testid={testId}
    />
  );
}
