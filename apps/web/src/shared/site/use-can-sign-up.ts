import { useSettings } from './api/get-settings';

/**
 * Whether this visitor may sign up (spec §6): the site's `signups` is 'all', or 'with_trafficsource' and the
 * visitor came with a traffic source; any other value closes signup. The server applies the same rule.
 */
export function useCanSignUp(): boolean {
  const { signups, is_trafficsource } = useSettings();
  return signups === 'all' || (signups === 'with_trafficsource' && is_trafficsource);
}
