import { forwardRef } from 'react';
import { Link, type LinkProps } from 'react-router';
import { useLocalePath } from './use-locale';

/** A router link whose path is put into the current locale. */
export const LocalLink = forwardRef<HTMLAnchorElement, LinkProps & { to: string }>(function LocalLink({ to, ...rest }, ref) {
  const localize = useLocalePath();
  return <Link ref={ref} to={localize(to)} {...rest} />;
});
