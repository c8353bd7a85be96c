import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';

export function Logo({ to = '/' }: { to?: string }) {
  const settings = useSettings();
  return (
    <LocalLink to={to} className="brand-logo" aria-label={settings.name}>
      <svg viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M16 25.5 6.6 16.3a5.6 5.6 0 0 1 7.9-7.9L16 9.9l1.5-1.5a5.6 5.6 0 0 1 7.9 7.9z" fill="#fff" />
      </svg>
      <span>{settings.name}</span>
    </LocalLink>
  );
}
