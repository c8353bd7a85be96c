import type { StaffRole } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useRouteError } from 'react-router';
import { useMe } from '../api/console';
import { consoleErrorText } from '../console-error';

function Problem({ title, text, testId }: { title: string; text?: string; testId: string }) {
  const { t } = useTranslation('console');
  return (
    <div className="console-problem" role="alert" data-testid={testId}>
      <h1 className="h4">{title}</h1>
      {text && <p>{text}</p>}
      <Link to="/console" className="btn btn-outline-dark btn-sm">
        {t('home.back')}
      </Link>
    </div>
  );
}

/** A section's page only for the roles it names (the API refuses the others anyway). */
export function SectionGate({ roles }: { roles: readonly StaffRole[] }) {
  const { t } = useTranslation('console');
  const me = useMe();
  if (me.role !== 'admin' && !roles.includes(me.role)) {
    return <Problem title={t('errors.forbidden')} testId="console-forbidden" />;
  }
  return <Outlet />;
}

export function ConsoleNotFound() {
  const { t } = useTranslation('console');
  return <Problem title={t('notFound')} testId="console-not-found" />;
}

/** A page that failed to load or to render. */
export function ConsoleError() {
  const { t } = useTranslation('console');
  const error = useRouteError();
  return <Problem title={t('errors.title')} text={consoleErrorText(t, error)} testId="console-route-error" />;
}
