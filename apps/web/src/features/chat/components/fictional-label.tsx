import { useSettings } from '@/shared/site/api/get-settings';
import { FictionalIcon } from '@/shared/site/fictional-icon';

/**
 * Beside each message of a fictional profile: the site's icon and its word for such profiles, with the site's
 * `fictional_warning` to read on hover and for screen readers, so no message passes for a real person's.
 */
export function FictionalLabel() {
  const settings = useSettings();
  return (
    <span className="chat-fictional-label" title={settings.fictional_warning} data-testid="chat-fictional-label">
      <FictionalIcon size={14} />
      <span aria-hidden="true">{settings.fictional_singular}</span>
      <span className="visually-hidden">{settings.fictional_warning}</span>
    </span>
  );
}
